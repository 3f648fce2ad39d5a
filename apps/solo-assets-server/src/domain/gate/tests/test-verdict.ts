/**
 * The test step's verdict, computed by the server outside the sandbox (issue #13, item 8).
 *
 * Each test case becomes a plan: the probes the sandbox runs (a call with its arguments, or an
 * expression to evaluate) and what stays here — the expected value, the comparison. The sandbox
 * reports only what each probe returned, one JSON line per probe on its result channel. That
 * channel is parsed strictly: bounded, schema-checked, one `load` line first, at most one line
 * per probe id; anything else (a forged or duplicated line, a line that is not a result) fails
 * every case of the run. Even a well-formed forgery can only claim a return value, which is then
 * compared with the expected value the code never saw.
 *
 * Comparisons follow the harness's old rules: tuples are lists, floats compare with a relative
 * tolerance of 1e-9 (absolute 1e-12), ints exactly, bools only with bools, dict keys as strings.
 * Assert statements: `assert X <op> Y` with one comparison (==, !=, <, <=, >, >=, in, not in,
 * is/is not None|True|False) evaluates the non-literal sides inside and compares here, literal
 * sides never entering the sandbox; any other assert evaluates `bool(expression)` inside.
 */
import { z } from "zod";
import type { TestCase } from "../../library/function-record.js";
import type { TestCaseResult } from "../gate-report.js";

/** A value as the harness encodes it (see harness-source.ts). */
export type Encoded =
  | null
  | boolean
  | number
  | string
  | Encoded[]
  | { $dict: Record<string, Encoded> }
  | { $int: string }
  | { $float: string }
  | { $set: Encoded[] }
  | { $bytes: string }
  | { $repr: string };

export type Probe =
  | { id: number; case: number; kind: "call"; input: Record<string, unknown> }
  | { id: number; case: number; kind: "eval"; source: string; truth?: boolean };

type Operand = { literal: Encoded } | { probe: number };

export type CasePlan =
  | { kind: "call"; label: string; probe: number; expected: Encoded }
  | { kind: "compare"; label: string; op: string; left: Operand; right: Operand }
  | { kind: "truth"; label: string; probe: number; negate: boolean }
  | { kind: "invalid"; label: string; error: string };

/** What the planner (outside, no user code) made of one assert statement. */
export const AssertPlanSchema = z.union([
  z.object({
    kind: z.literal("compare"),
    op: z.enum(["==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"]),
    left: z.union([z.object({ literal: z.unknown() }), z.object({ expr: z.string() })]),
    right: z.union([z.object({ literal: z.unknown() }), z.object({ expr: z.string() })]),
  }),
  z.object({ kind: z.literal("truth"), expr: z.string(), negate: z.boolean() }),
  z.object({ kind: z.literal("invalid"), error: z.string() }),
]);
export type AssertPlan = z.infer<typeof AssertPlanSchema>;

/** JSON from the client (a call case's expected value) in the encoded form. */
export function encodeJson(value: unknown): Encoded {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? value : { $float: String(value) };
  if (Array.isArray(value)) return value.map(encodeJson);
  if (typeof value === "object") return { $dict: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeJson(v)])) };
  return { $repr: String(value) };
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

/** How a value is shown in labels and mismatches (JSON-like, Python's spelling for the rest). */
export function display(value: Encoded, limit = 2000): string {
  const show = (v: Encoded): string => {
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(show).join(", ")}]`;
    if ("$dict" in v)
      return `{${Object.entries(v.$dict)
        .map(([k, item]) => `${JSON.stringify(k)}: ${show(item)}`)
        .join(", ")}}`;
    if ("$int" in v) return v.$int;
    if ("$float" in v) return v.$float;
    if ("$set" in v) return v.$set.length === 0 ? "set()" : `{${v.$set.map(show).join(", ")}}`;
    if ("$bytes" in v) return `bytes.fromhex('${v.$bytes}')`;
    return v.$repr;
  };
  return clip(show(value), limit);
}

type Numeric = { float: number } | { int: bigint };

function numeric(value: Encoded): Numeric | undefined {
  if (typeof value === "number") return Number.isInteger(value) ? { int: BigInt(value) } : { float: value };
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  if ("$int" in value && /^-?\d+$/.test(value.$int)) return { int: BigInt(value.$int) };
  if ("$float" in value) {
    const text = value.$float;
    return { float: text === "inf" ? Infinity : text === "-inf" ? -Infinity : text === "nan" ? NaN : Number(text) };
  }
  return undefined;
}

const asFloat = (n: Numeric) => ("float" in n ? n.float : Number(n.int));

function isTag<K extends string>(value: Encoded, key: K): value is Extract<Encoded, Record<K, unknown>> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && key in value;
}

export function sameValue(actual: Encoded, expected: Encoded): boolean {
  if (typeof actual === "boolean" || typeof expected === "boolean") return actual === expected;
  const a = numeric(actual);
  const e = numeric(expected);
  if (a || e) {
    if (!a || !e) return false;
    if ("int" in a && "int" in e) return a.int === e.int;
    const x = asFloat(a);
    const y = asFloat(e);
    if (x === y) return true;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
    return Math.abs(x - y) <= Math.max(1e-9 * Math.max(Math.abs(x), Math.abs(y)), 1e-12);
  }
  if (actual === null || expected === null || typeof actual === "string" || typeof expected === "string") return actual === expected;
  if (Array.isArray(actual) || Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      Array.isArray(expected) &&
      actual.length === expected.length &&
      actual.every((item, i) => sameValue(item, expected[i] ?? null))
    );
  }
  if (isTag(actual, "$dict") && isTag(expected, "$dict")) {
    const keys = Object.keys(actual.$dict);
    return (
      keys.length === Object.keys(expected.$dict).length &&
      keys.every((k) => k in expected.$dict && sameValue(actual.$dict[k] ?? null, expected.$dict[k] ?? null))
    );
  }
  if (isTag(actual, "$set") && isTag(expected, "$set")) {
    return (
      actual.$set.length === expected.$set.length && actual.$set.every((item) => expected.$set.some((other) => sameValue(item, other)))
    );
  }
  if (isTag(actual, "$bytes") && isTag(expected, "$bytes")) return actual.$bytes === expected.$bytes;
  // $repr: an object the harness could not encode is equal to nothing.
  return false;
}

/** `left op right`, or a reason the values cannot be compared that way. */
function compare(op: string, left: Encoded, right: Encoded): boolean | string {
  switch (op) {
    case "==":
      return sameValue(left, right);
    case "!=":
      return !sameValue(left, right);
    case "is":
    case "is not": {
      const same = (left === null && right === null) || (typeof left === "boolean" && left === right);
      return op === "is" ? same : !same;
    }
    case "in":
    case "not in": {
      let found: boolean;
      if (typeof right === "string" && typeof left === "string") found = right.includes(left);
      else if (Array.isArray(right)) found = right.some((item) => sameValue(left, item));
      else if (isTag(right, "$set")) found = right.$set.some((item) => sameValue(left, item));
      else if (isTag(right, "$dict")) found = typeof left === "string" && left in right.$dict;
      else return `cannot test membership in ${display(right, 200)}`;
      return op === "in" ? found : !found;
    }
    default: {
      const a = numeric(left);
      const b = numeric(right);
      let x: number | bigint | string;
      let y: number | bigint | string;
      if (a && b) {
        [x, y] = "int" in a && "int" in b ? [a.int, b.int] : [asFloat(a), asFloat(b)];
      } else if (typeof left === "string" && typeof right === "string") {
        [x, y] = [left, right];
      } else {
        return `cannot order ${display(left, 200)} and ${display(right, 200)}`;
      }
      return op === "<" ? x < y : op === "<=" ? x <= y : op === ">" ? x > y : x >= y;
    }
  }
}

/** The probes the sandbox runs and the plan of every case; expected values stay in the plans. */
export function planCases(
  name: string,
  cases: readonly TestCase[],
  assertPlans: readonly AssertPlan[],
): { probes: Probe[]; plans: CasePlan[] } {
  const probes: Probe[] = [];
  const plans: CasePlan[] = [];
  let assertIndex = 0;
  type NewProbe =
    { case: number; kind: "call"; input: Record<string, unknown> } | { case: number; kind: "eval"; source: string; truth?: boolean };
  const probe = (p: NewProbe): number => {
    const id = probes.length;
    probes.push({ ...p, id });
    return id;
  };
  cases.forEach((testCase, index) => {
    if (typeof testCase === "string") {
      const plan = assertPlans[assertIndex++] ?? { kind: "invalid" as const, error: "The statement could not be read." };
      const label = testCase;
      const operand = (side: { literal: unknown } | { expr: string }): Operand =>
        "expr" in side ? { probe: probe({ case: index, kind: "eval", source: side.expr }) } : { literal: side.literal as Encoded };
      switch (plan.kind) {
        case "compare":
          plans.push({ kind: "compare", label, op: plan.op, left: operand(plan.left), right: operand(plan.right) });
          break;
        case "truth":
          plans.push({
            kind: "truth",
            label,
            negate: plan.negate,
            probe: probe({ case: index, kind: "eval", source: plan.expr, truth: true }),
          });
          break;
        case "invalid":
          plans.push({ kind: "invalid", label, error: plan.error });
          break;
      }
      return;
    }
    const expected = encodeJson(testCase.expected);
    const args = Object.entries(testCase.input).map(([key, value]) => `${key}=${clip(display(encodeJson(value)), 200)}`);
    const label = `${name}(${args.join(", ")}) == ${clip(display(expected), 200)}`;
    plans.push({ kind: "call", label, expected, probe: probe({ case: index, kind: "call", input: testCase.input }) });
  });
  return { probes, plans };
}

const ResultLineSchema = z.union([
  z.object({ load: z.enum(["ok", "syntax_error", "load_error"]), error: z.string().max(64_000).optional() }).strict(),
  z.object({ id: z.number().int().min(0), value: z.unknown() }).strict(),
  z.object({ id: z.number().int().min(0), error: z.string().max(64_000) }).strict(),
]);

export type ProbeOutcome = { value: Encoded } | { error: string };

export interface HarnessOutput {
  load?: { status: "ok" | "syntax_error" | "load_error"; error?: string };
  outcomes: Map<number, ProbeOutcome>;
  /** Set when the channel held anything but well-formed results: every case then fails. */
  tampered?: string;
}

const EncodedSchema: z.ZodType<Encoded> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(EncodedSchema),
    z.object({ $dict: z.record(z.string(), EncodedSchema) }).strict(),
    z.object({ $int: z.string().regex(/^-?\d+$/) }).strict(),
    z.object({ $float: z.string() }).strict(),
    z.object({ $set: z.array(EncodedSchema) }).strict(),
    z.object({ $bytes: z.string().regex(/^[0-9a-f]*$/) }).strict(),
    z.object({ $repr: z.string() }).strict(),
  ]),
);

/** Parses the result channel (the harness's stdout) strictly. */
export function parseHarnessOutput(stdout: string, probeCount: number, truncated: boolean): HarnessOutput {
  const out: HarnessOutput = { outcomes: new Map() };
  const fail = (why: string) => ({ ...out, tampered: why });
  if (truncated) return fail("The test process wrote more than 4 MiB of results.");
  const lines = stdout.split("\n");
  // A run killed mid-line leaves a partial last line: ignore it; everything before must be valid.
  const complete = lines.slice(0, -1);
  for (const [n, line] of complete.entries()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return fail(`Line ${n + 1} of the result channel is not a result: the code wrote to it.`);
    }
    const record = ResultLineSchema.safeParse(parsed);
    if (!record.success) return fail(`Line ${n + 1} of the result channel is not a result: the code wrote to it.`);
    const data = record.data;
    if ("load" in data) {
      if (n !== 0 || out.load) return fail("The result channel holds a second load report: the code wrote to it.");
      out.load = { status: data.load, ...(data.error !== undefined ? { error: data.error } : {}) };
      continue;
    }
    if (n === 0) return fail("The result channel does not start with the load report: the code wrote to it.");
    if (data.id >= probeCount || out.outcomes.has(data.id))
      return fail(`The result channel holds a second or unknown result for probe ${data.id}: the code wrote to it.`);
    if ("value" in data) {
      const value = EncodedSchema.safeParse(data.value);
      if (!value.success) return fail(`The result for probe ${data.id} is not a value the harness writes: the code wrote to it.`);
      out.outcomes.set(data.id, { value: value.data });
    } else {
      out.outcomes.set(data.id, { error: data.error });
    }
  }
  return out;
}

/** Every case judged from what its probes returned. */
export function judgeCases(plans: readonly CasePlan[], output: HarnessOutput): TestCaseResult[] {
  return plans.map((plan, index): TestCaseResult => {
    const kind = plan.kind === "call" ? "call" : "assert";
    const base = { index, kind, label: plan.label } as const;
    if (output.tampered) return { ...base, passed: false, error: output.tampered };
    if (plan.kind === "invalid") return { ...base, passed: false, error: plan.error };
    const get = (id: number): ProbeOutcome | undefined => output.outcomes.get(id);
    const missing = { ...base, passed: false, error: "No result: the run ended before this case finished." };
    if (plan.kind === "call" || plan.kind === "truth") {
      const outcome = get(plan.probe);
      if (!outcome) return missing;
      if ("error" in outcome) return { ...base, passed: false, error: outcome.error };
      const actual = display(outcome.value);
      if (plan.kind === "call") {
        return sameValue(outcome.value, plan.expected)
          ? { ...base, passed: true, actual }
          : { ...base, passed: false, actual, error: `expected ${display(plan.expected)}, got ${actual}` };
      }
      const passed = outcome.value === !plan.negate;
      return passed ? { ...base, passed } : { ...base, passed, error: `AssertionError: ${plan.label}` };
    }
    const values: Encoded[] = [];
    for (const side of [plan.left, plan.right]) {
      if ("literal" in side) {
        values.push(side.literal);
        continue;
      }
      const outcome = get(side.probe);
      if (!outcome) return missing;
      if ("error" in outcome) return { ...base, passed: false, error: outcome.error };
      values.push(outcome.value);
    }
    const [left = null, right = null] = values;
    const verdict = compare(plan.op, left, right);
    const actual = "probe" in plan.left ? display(left) : display(right);
    if (typeof verdict === "string") return { ...base, passed: false, actual, error: verdict };
    return verdict
      ? { ...base, passed: true, actual }
      : { ...base, passed: false, actual, error: `AssertionError: ${display(left)} ${plan.op} ${display(right)} is false` };
  });
}
