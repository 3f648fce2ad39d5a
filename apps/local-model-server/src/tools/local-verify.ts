/**
 * local_verify: a checklist against the code. Conditions (`contains`, `exports`, `imports`,
 * `pattern`) are checked exactly, with `line N: <snippet>` evidence; a check with only a
 * natural-language description goes to the model, whose verdict must pass the gate
 * (verdict-gate.ts). A check on a file that does not exist fails. Batches degrade per check: with
 * `engine: "auto"`, a check the model cannot answer (none configured, not usable, its answers
 * refused) is `status: "error"` with its code, and the exact checks are still answered.
 */
import { READ_ONLY, defineTool, isToolError, lazySchema, ToolError, type ToolContext, type ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { NO_MODEL_SUGGESTION } from "../domain/model/model-service.js";
import { jsonTaskMessages, numbered } from "../domain/model/prompts.js";
import { SHORT_ANSWER_BOUNDS, VERDICT_SCHEMA } from "../domain/model/task-schemas.js";
import { checkCondition, CONDITION_TYPES, missingFile, type ConditionType, type Verdict } from "../domain/verify/conditions.js";
import { SourceCache } from "../domain/verify/source-cache.js";
import { citedLine, verdictCheck, type ModelVerdict } from "../domain/verify/verdict-gate.js";
import { analyzerFor } from "../domain/analyze/code-languages.js";
import type { LocalModelRuntime } from "../runtime.js";
import { boundedArray, boundedString, closedObject, EngineChoiceSchema, contractOutput } from "./contract.js";
import { chooseEngine } from "./engine-choice.js";
import type { EngineName, Json, TaskOutcome } from "./task-response.js";
import { itemProgress, ModelTally, runTask } from "./run-task.js";

const TASKS = ["must_haves", "patterns", "exports", "imports"] as const;
/** The condition type a check without one gets from the task type. */
const DEFAULT_TYPE: Record<(typeof TASKS)[number], ConditionType> = {
  must_haves: "contains",
  patterns: "pattern",
  exports: "exports",
  imports: "imports",
};

// Listed with few words: the server's instructions say how conditions and task_type work.
const check = closedObject({
  id: boundedString(200),
  description: boundedString(2000, 0).optional().describe("alone: judged by the model"),
  file: boundedString(4096),
  condition: closedObject({
    // pattern: a regex; absent: the type task_type names
    type: z.enum(CONDITION_TYPES).optional(),
    value: boundedString(10_000),
  }).optional(),
});

const input = z.object({
  // default must_haves; sets the condition type of checks that name none
  task_type: z.enum(TASKS).optional(),
  checks: boundedArray(check, 200, 1),
  engine: EngineChoiceSchema,
});

const result = z.object({
  id: z.string(),
  status: z.enum(["pass", "fail", "error"]),
  code: z
    .string()
    .optional()
    .describe("error: why the check was not answered (NOT_READY: no usable model; UPSTREAM_ERROR: answers refused)"),
  evidence: z.string().optional().describe("standard: `line N: <snippet>`, or `not found`"),
  reason: z.string().optional(),
  engine: z.enum(["deterministic", "model"]).optional(),
  file: z.string().optional(),
  line: z.number().int().optional(),
  via: z.string().optional(),
  condition: z.object({ type: z.string(), value: z.string() }).optional(),
  confidence: z.number().nullable().optional(),
  suggestion: z.string().optional(),
});

const output = lazySchema(() =>
  contractOutput(
    z.object({ passed: z.number().int(), failed: z.number().int(), errors: z.number().int().optional(), results: z.array(result) }),
  ),
);

export function localVerifyTool(runtime: LocalModelRuntime): ToolDefinition {
  return defineTool({
    name: "local_verify",
    title: "Verify a checklist against code",
    description: ["Checks requirements (e.g. GSD must_haves) against files: pass/fail per check; standard adds line evidence."].join(" "),
    input,
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    timeoutMs: runtime.config.timeoutMs,
    handler: (args, ctx) => runTask(runtime, "local_verify", ctx, () => verify(runtime, args, ctx)),
  });
}

interface Planned {
  index: number;
  check: z.infer<typeof check>;
  type: ConditionType | undefined;
  value: string | undefined;
  useModel: boolean;
}

async function verify(runtime: LocalModelRuntime, args: z.infer<typeof input>, ctx: ToolContext): Promise<TaskOutcome> {
  const defaultType = DEFAULT_TYPE[args.task_type ?? "must_haves"];
  const cache = new SourceCache(runtime.guard);
  const planned: Planned[] = [];
  for (const [index, c] of args.checks.entries()) {
    if (!c.condition && !c.description?.trim()) {
      throw new ToolError("INVALID_INPUT", `Check ${c.id} has neither a condition nor a description.`, {
        details: { field: `checks.${index}` },
      });
    }
    const type = c.condition ? (c.condition.type ?? defaultType) : undefined;
    // Read (and guard) every file up front: a forbidden path fails the call before any work.
    const file = await cache.file(c.file);
    const needsParser = type === "exports" || type === "imports";
    const exactPossible = type !== undefined && (!needsParser || file === undefined || analyzerFor(file.given) !== undefined);
    planned.push({ index, check: c, type, value: c.condition?.value, useModel: args.engine === "model" || !exactPossible });
  }
  // engine "model" without a model, or "deterministic" with checks that need one, fail the call;
  // with "auto" each such check is answered NOT_READY on its own (below).
  if (args.engine !== undefined && args.engine !== "auto") {
    const judged = planned.filter((p) => p.useModel && args.engine !== "model").map((p) => p.check.id);
    chooseEngine(
      args.engine,
      {
        needsJudgment:
          judged.length > 0
            ? `${checksNamed(judged)} (natural-language, or exports/imports of a file in no supported language)`
            : undefined,
      },
      runtime.model,
    );
  }

  const tally = new ModelTally();
  const minimal: Json[] = [];
  const standard: Json[] = [];
  const full: Json[] = [];
  const unanswered = new Map<string, { error: ToolError; ids: string[] }>();
  /** Once the model is found unusable in this call, the other model checks are not sent. */
  let unusable: ToolError | undefined = runtime.model.configured
    ? undefined
    : new ToolError(
        "NOT_READY",
        "No model is configured, and natural-language checks (or exports/imports of a file in no supported language) need one.",
        {
          suggestion: NO_MODEL_SUGGESTION,
        },
      );
  for (const p of planned) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const file = await cache.file(p.check.file);
    let verdict: Verdict | undefined;
    let failure: ToolError | undefined;
    let engine: EngineName = "deterministic";
    let confidence: number | null = 1;
    if (!file) verdict = missingFile(p.check.file);
    else if (p.useModel) {
      engine = "model";
      failure = unusable;
      if (!failure) {
        try {
          ({ verdict, confidence } = await judge(runtime, p, file.given, file.text, tally, ctx.signal));
        } catch (caught) {
          if (!isToolError(caught) || (caught.code !== "NOT_READY" && caught.code !== "UPSTREAM_ERROR")) throw caught;
          failure = caught;
          tally.addFailed(caught.details);
          // A model that did not load, or a server that refuses all answers, will not do better on the next check.
          if (caught.code === "NOT_READY" || caught.details?.setting !== undefined) unusable = caught;
        }
      }
    } else
      verdict = await checkCondition(p.type as ConditionType, p.value as string, file, {
        cache,
        regex: runtime.regex,
        signal: ctx.signal,
        index: p.index,
      });
    if (failure) {
      const group = unanswered.get(failure.message) ?? { error: failure, ids: [] };
      group.ids.push(p.check.id);
      unanswered.set(failure.message, group);
      minimal.push({ id: p.check.id, status: "error", code: failure.code });
      standard.push({ reason: failure.message, engine, file: p.check.file });
      full.push({ suggestion: failure.suggestion });
    } else {
      const v = verdict as Verdict;
      // minimal: pass or fail per check id; the evidence and the rest from standard.
      minimal.push({ id: p.check.id, status: v.status });
      standard.push({
        evidence: v.evidence,
        ...(v.reason ? { reason: v.reason } : {}),
        engine,
        file: p.check.file,
        ...(v.line !== undefined ? { line: v.line } : {}),
        ...(v.via ? { via: v.via } : {}),
      });
      full.push({
        ...(p.type && p.value ? { condition: { type: p.type, value: p.value } } : {}),
        ...(engine === "model" ? { confidence } : {}),
      });
    }
    itemProgress(ctx, planned.length, p.index + 1, `checked ${p.check.id}`);
  }
  const passed = minimal.filter((r) => r.status === "pass").length;
  const errors = minimal.filter((r) => r.status === "error").length;
  const usage = tally.usage(runtime.model.name);
  const read = await cache.readFiles();
  const problems = [...unanswered.values()].map(
    ({ error, ids }) => `Not answered (${error.code}): ${ids.join(", ")}. ${error.message} ${error.suggestion}`,
  );
  return {
    engine: usage ? "model" : "deterministic",
    data: {
      minimal: { passed, failed: minimal.length - passed - errors, ...(errors > 0 ? { errors } : {}), results: minimal },
      standard: { results: standard },
      full: { results: full },
    },
    inputChars: read.reduce((sum, f) => sum + f.text.length, 0),
    ...(problems.length > 0 ? { problems } : {}),
    ...(usage ? { model: usage } : {}),
  };
}

function checksNamed(ids: readonly string[]): string {
  return `the check${ids.length > 1 ? "s" : ""} ${ids.join(", ")}`;
}

async function judge(
  runtime: LocalModelRuntime,
  p: Planned,
  path: string,
  text: string,
  tally: ModelTally,
  signal: AbortSignal,
): Promise<{ verdict: Verdict; confidence: number | null }> {
  const condition = p.type && p.value ? `${p.type} "${p.value}"` : "(none: judge the description)";
  const messages = jsonTaskMessages(
    "code verification tool. Check whether the condition is satisfied",
    [
      `CHECK ${p.check.id}: ${p.check.description ?? ""}`,
      `FILE: ${path}`,
      `CONDITION: ${condition}`,
      'Evidence must be specific: "line N: <relevant code>", or "not found". reason is null when the check passes, else why it fails.',
    ].join("\n"),
    [{ label: "FILE CONTENT (line numbers added)", text: numbered(text, runtime.config.maxInputChars) }],
    VERDICT_SCHEMA,
  );
  const answer = await runtime.model.json<ModelVerdict>(
    { messages, schema: VERDICT_SCHEMA, grammarBounds: SHORT_ANSWER_BOUNDS, check: verdictCheck(path, text) },
    signal,
  );
  const value = tally.add(answer);
  const line = citedLine(value.evidence);
  const verdict: Verdict = {
    status: value.status,
    evidence: value.evidence.trim(),
    ...(value.reason ? { reason: value.reason } : {}),
    ...(line ? { line } : {}),
  };
  return { verdict, confidence: answer.confidenceUnknown === undefined ? answer.confidence : null };
}
