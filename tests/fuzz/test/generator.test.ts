/**
 * The generator without a server: the same seed gives the same calls, mutations cover every kind
 * the harness promises, recipes expand to what they stand for, and solo saves never name an
 * installable package.
 */
import type { Tool } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { CaseGenerator, MAX_REQUEST_BYTES } from "../src/case-generator.js";
import { REGEX_STRINGS } from "../src/hostile-values.js";
import { withoutInstallableDependencies } from "../src/targets/solo.js";
import { Big, fill, materialize, nest, repeat, reviveBig, wireBytes, wireJson } from "../src/wire-value.js";

const TOOL: Tool = {
  name: "find",
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", minLength: 1, maxLength: 4096 },
      pattern: { type: "string", minLength: 1 },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      tags: { type: "array", items: { type: "string" }, maxItems: 20 },
      options: { type: "object", properties: { deep: { type: "boolean" } }, additionalProperties: false },
    },
    required: ["path", "limit"],
    additionalProperties: false,
  },
};

function generator(seed: number) {
  return new CaseGenerator({
    server: "test-mcp",
    seed,
    tools: [TOOL],
    hints: { path: ["notes.md"] },
    golden: [],
    goldenRate: 0,
    expensiveRate: 0,
    mutation: { writeFields: new Set(), sandbox: { outside: "/tmp/outside" }, symlinkNames: ["link-out.md"] },
  });
}

const CASES = 1_500;
const seven = generator(7);
const sample = Array.from({ length: CASES }, (_, k) => seven.caseAt(k));
const texts = sample.map((c) => wireJson(c.arguments));

function collect(value: unknown, out: unknown[] = []): unknown[] {
  out.push(value);
  if (value instanceof Big) return out;
  if (typeof value === "object" && value !== null) for (const item of Object.values(value)) collect(item, out);
  return out;
}
const values = sample.flatMap((c) => collect(c.arguments));
const strings = values.filter((v): v is string => typeof v === "string");
const objects = sample
  .map((c) => c.arguments)
  .filter((a): a is Record<string, unknown> => typeof a === "object" && a !== null && !Array.isArray(a) && !(a instanceof Big));

describe("case generation", () => {
  it("gives the same calls for the same seed and other calls for another", () => {
    // A fresh generator, asked for the cases in another order, gives the same calls: each depends on its seed alone.
    const again = generator(7);
    expect(Array.from({ length: 200 }, (_, k) => wireJson(again.caseAt(199 - k).arguments)).reverse()).toEqual(texts.slice(0, 200));
    const eight = generator(8);
    const other = Array.from({ length: 200 }, (_, k) => wireJson(eight.caseAt(k).arguments));
    expect(other.filter((text, k) => text !== texts[k]).length).toBeGreaterThan(150);
  });

  it("starts valid-looking, then mostly mutates", () => {
    expect(sample.slice(0, 3).map((c) => c.mode)).toEqual(["valid", "valid", "valid"]);
    const mutated = sample.filter((c) => c.mode === "mutated").length;
    expect(mutated / CASES).toBeGreaterThan(0.7);
    for (const c of sample.slice(0, 3)) expect(c.arguments).toMatchObject({ path: expect.any(String), limit: expect.any(Number) });
  });

  it("mutates with wrong types, missing and extra fields, and whole non-object arguments", () => {
    expect(objects.some((a) => typeof a.limit === "string" || typeof a.limit === "boolean")).toBe(true);
    expect(objects.some((a) => typeof a.path === "number" || Array.isArray(a.path))).toBe(true);
    expect(objects.some((a) => !("path" in a))).toBe(true);
    expect(objects.some((a) => Object.prototype.hasOwnProperty.call(a, "__proto__"))).toBe(true);
    expect(objects.some((a) => Object.keys(a).some((k) => !(k in (TOOL.inputSchema.properties ?? {}))))).toBe(true);
    expect(sample.some((c) => c.arguments === null || Array.isArray(c.arguments) || typeof c.arguments === "string")).toBe(true);
  });

  it("sends empty, huge, unicode, control, traversal and regex strings", () => {
    expect(strings).toContain("");
    expect(strings.some((s) => /\uD800(?![\uDC00-\uDFFF])/.test(s))).toBe(true);
    expect(strings.some((s) => s.includes("\u0000"))).toBe(true);
    expect(strings.some((s) => s.includes("\u202E") || /[\u0590-\u06FF]/.test(s))).toBe(true);
    expect(strings.some((s) => s.includes("../") || s.startsWith("/etc/"))).toBe(true);
    expect(strings.some((s) => s.includes("%2e%2e") || s.includes("%252f"))).toBe(true);
    expect(strings).toContain("link-out.md");
    expect(strings.some((s) => (REGEX_STRINGS as readonly string[]).includes(s) && s.includes("+)+"))).toBe(true);
    const recipes = values.filter((v): v is Big => v instanceof Big).map((b) => b.spec);
    expect(recipes.some((r) => r.$fuzz === "repeat" && r.count >= 1_048_576)).toBe(true);
    expect(recipes.some((r) => r.$fuzz === "fill" && r.count === 100_000)).toBe(true);
    expect(recipes.some((r) => r.$fuzz === "nest" && r.depth === 10_000)).toBe(true);
  });

  it("sends edge numbers: negative, fractional, huge, past the bounds", () => {
    const limits = objects.map((a) => a.limit).filter((v): v is number => typeof v === "number");
    expect(limits.some((n) => n < 0)).toBe(true);
    expect(limits.some((n) => !Number.isInteger(n))).toBe(true);
    expect(limits.some((n) => n > 1e15)).toBe(true);
    expect(limits).toContain(101);
    expect(limits.some((n) => Number.isNaN(n) || !Number.isFinite(n))).toBe(true);
  });

  it("keeps every request below the stdio transport's limit", () => {
    expect(Math.max(...sample.map((c) => wireBytes(c.arguments)))).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
  });
});

describe("recipes", () => {
  it("expand to the values they stand for and survive a case file", () => {
    expect(materialize(repeat("ab", 3))).toBe("ababab");
    expect(materialize(fill(1, 3))).toEqual([1, 1, 1]);
    expect(materialize(nest("object", 2, 5))).toEqual({ a: { a: 5 } });
    const deep = JSON.parse(wireJson({ x: nest("array", 10_000, "leaf") })) as { x: unknown };
    let depth = 0;
    for (let v: unknown = deep.x; Array.isArray(v); v = v[0]) depth += 1;
    expect(depth).toBe(10_000);
    const saved = JSON.parse(JSON.stringify({ a: repeat("x", 5), b: [fill("y", 2)] }), reviveBig) as { a: Big; b: Big[] };
    expect(saved.a).toBeInstanceOf(Big);
    expect(materialize(saved)).toEqual({ a: "xxxxx", b: [["y", "y"]] });
    expect(wireBytes(repeat("a", 1_000))).toBe(wireJson(repeat("a", 1_000)).length);
  });
});

describe("solo saves", () => {
  it("never list a dependency pip could look up", () => {
    const args = { name: "f", dependencies: ["numpy", "requests>=2", "-rf", "not/a/package", "😀", repeat("a", 10), 5], code: "x" };
    expect(withoutInstallableDependencies("save_function", args)).toMatchObject({ dependencies: ["not/a/package", "😀", 5] });
    expect(withoutInstallableDependencies("save_function", { dependencies: fill("numpy", 3) })).toEqual({ dependencies: [] });
    expect(withoutInstallableDependencies("list_functions", args)).toBe(args);
  });
});
