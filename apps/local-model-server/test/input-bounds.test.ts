/**
 * The input limits guard the server without costing the tool list: tools/list shows no length or
 * size bounds and no `additionalProperties: false` below the top level (core's), yet every limit is
 * still enforced — an over-limit value is INVALID_INPUT naming the field and the limit, an unknown
 * key in a nested object is refused as `.strict()` refused it — and local_git's `options.format`,
 * an alias of response_level left out of the listing, is still accepted and checked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRepo } from "./git-repo-fixture.js";
import { configFor, connect, errorOf, tempDir, type Connected } from "./helpers.js";

let server: Connected;
let repo: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  repo = await tempDir("local-model-bounds-");
  buildRepo(repo.path);
  server = await connect(configFor({ LOCAL_MODEL_ROOTS: repo.path }));
});

afterAll(async () => {
  await server?.close();
  await repo?.remove();
});

const BOUND_KEYWORDS = ["minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum"];

/** Every keyword path in a JSON Schema that states a bound, or `additionalProperties: false` below the root. */
function boundsIn(node: unknown, path: string, found: string[] = []): string[] {
  if (node === null || typeof node !== "object") return found;
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}.${key}`;
    if (BOUND_KEYWORDS.includes(key) && typeof value === "number") found.push(at);
    else if (key === "additionalProperties" && value === false && path !== "") found.push(at);
    boundsIn(value, at, found);
  }
  return found;
}

const long = (n: number) => "a".repeat(n);
const many = (n: number) => Array.from({ length: n }, (_, i) => `f${i}.ts`);
const check = (over: Record<string, unknown> = {}) => ({ id: "C1", file: "a.txt", condition: { type: "contains", value: "x" }, ...over });

/** [tool, arguments, the field INVALID_INPUT names, what its message says]. */
const OVER_LIMIT: [string, Record<string, unknown>, string, string][] = [
  ["local_extract", { task_type: "exports", files: [] }, "files", ">=1 items"],
  ["local_extract", { task_type: "exports", files: many(201) }, "files", "<=200 items"],
  ["local_extract", { task_type: "exports", files: [long(4097)] }, "files.0", "<=4096 characters"],
  ["local_extract", { task_type: "exports", files: [""] }, "files.0", ">=1 characters"],
  [
    "local_extract",
    { task_type: "pattern_match", files: ["a.txt"], extract: { patterns: Array(51).fill("x") } },
    "extract.patterns",
    "<=50 items",
  ],
  ["local_extract", { task_type: "pattern_match", files: ["a.txt"], extract: { patterns: [] } }, "extract.patterns", ">=1 items"],
  [
    "local_extract",
    { task_type: "pattern_match", files: ["a.txt"], extract: { patterns: [long(1001)] } },
    "extract.patterns.0",
    "<=1000 characters",
  ],
  [
    "local_extract",
    { task_type: "frontmatter", files: ["a.txt"], extract: { fields: Array(101).fill("x") } },
    "extract.fields",
    "<=100 items",
  ],
  [
    "local_extract",
    { task_type: "frontmatter", files: ["a.txt"], extract: { fields: [long(201)] } },
    "extract.fields.0",
    "<=200 characters",
  ],
  ["local_analyze", { task_type: "exports", files: many(201) }, "files", "<=200 items"],
  ["local_analyze", { task_type: "dependencies", files: ["a.ts"], depth: 11 }, "depth", "<=10"],
  ["local_analyze", { task_type: "dependencies", files: ["a.ts"], depth: 0 }, "depth", ">=1"],
  ["local_ask", { question: long(4001) }, "question", "<=4000 characters"],
  ["local_ask", { question: "q", files: many(21) }, "files", "<=20 items"],
  ["local_ask", { question: "q", text: long(100_001) }, "text", "<=100000 characters"],
  ["local_verify", { checks: [] }, "checks", ">=1 items"],
  ["local_verify", { checks: Array(201).fill(check()) }, "checks", "<=200 items"],
  ["local_verify", { checks: [check({ id: long(201) })] }, "checks.0.id", "<=200 characters"],
  ["local_verify", { checks: [check({ id: "" })] }, "checks.0.id", ">=1 characters"],
  ["local_verify", { checks: [check({ description: long(2001) })] }, "checks.0.description", "<=2000 characters"],
  ["local_verify", { checks: [check({ file: long(4097) })] }, "checks.0.file", "<=4096 characters"],
  ["local_verify", { checks: [check({ condition: { value: long(10_001) } })] }, "checks.0.condition.value", "<=10000 characters"],
  ["local_verify", { checks: [check({ condition: { value: "" } })] }, "checks.0.condition.value", ">=1 characters"],
  ["local_git", { task_type: "log", options: { limit: 1001 } }, "options.limit", "<=1000"],
  ["local_git", { task_type: "log", options: { limit: 0 } }, "options.limit", ">=1"],
  ["local_git", { task_type: "status", options: { paths: many(101) } }, "options.paths", "<=100 items"],
  ["local_git", { task_type: "status", options: { paths: [long(4097)] } }, "options.paths.0", "<=4096 characters"],
  ["local_git", { task_type: "diff", options: { ref: long(201) } }, "options.ref", "<=200 characters"],
  ["local_git", { task_type: "status", repo: long(4097) }, "repo", "<=4096 characters"],
  ["local_generate", { template: long(200_001) }, "template", "<=200000 characters"],
  ["local_generate", { template: "" }, "template", ">=1 characters"],
  ["local_generate", { template: "x", output_path: long(4097) }, "output_path", "<=4096 characters"],
];

/** Keys the nested objects never took: refused, as `.strict()` refused them. */
const UNKNOWN_KEYS: [string, Record<string, unknown>, string][] = [
  ["local_extract", { task_type: "exports", files: ["a.txt"], extract: { pattern: "x" } }, "pattern"],
  ["local_verify", { checks: [check({ severity: "high" })] }, "severity"],
  ["local_verify", { checks: [check({ condition: { value: "x", flags: "i" } })] }, "flags"],
  ["local_git", { task_type: "log", options: { count: 3 } }, "count"],
];

describe("input limits", () => {
  it("are not in tools/list: no length, size or number bounds and no nested additionalProperties: false; options.format is not listed", async () => {
    const { tools } = await server.client.listTools();
    expect(tools).toHaveLength(6);
    for (const tool of tools) expect(boundsIn(tool.inputSchema, ""), tool.name).toEqual([]);
    const git = tools.find((t) => t.name === "local_git")?.inputSchema as unknown as {
      properties: { options: { properties: Record<string, unknown> } };
    };
    expect(Object.keys(git.properties.options.properties).sort()).toEqual(["limit", "paths", "ref", "staged"]);
  });

  it.each(OVER_LIMIT.map(([tool, args, field, limit]) => ({ tool, args, field, limit })))(
    "$tool: $field beyond $limit is INVALID_INPUT naming the field and the limit",
    async ({ tool, args, field, limit }) => {
      const { isError, body } = await server.call(tool, args);
      expect(isError).toBe(true);
      const error = errorOf(body);
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toContain(`${field}: Too ${limit.startsWith("<") ? "big" : "small"}`);
      expect(error.message).toContain(limit);
      expect(error.details?.fields).toContainEqual({ field, message: expect.stringContaining(limit) });
      expect(error.suggestion).toContain(`'${field}'`);
    },
  );

  it.each(UNKNOWN_KEYS.map(([tool, args, key]) => ({ tool, args, key })))(
    "$tool refuses the unknown key $key",
    async ({ tool, args, key }) => {
      const { isError, body } = await server.call(tool, args);
      expect(isError).toBe(true);
      expect(errorOf(body)).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining(`Unrecognized key: "${key}"`) });
    },
  );

  it("local_git still takes options.format (detailed: level full) and refuses a format it never had", async () => {
    const detailed = await server.call("local_git", { task_type: "status", repo: repo.path, options: { format: "detailed" } });
    expect(detailed.isError, JSON.stringify(detailed.body).slice(0, 300)).toBe(false);
    expect(detailed.body).toHaveProperty("stats");
    const summary = await server.call("local_git", { task_type: "status", repo: repo.path, options: { format: "summary" } });
    expect(summary.isError).toBe(false);
    expect(summary.body).not.toHaveProperty("stats");
    const bogus = await server.call("local_git", { task_type: "status", repo: repo.path, options: { format: "verbose" } });
    expect(bogus.isError).toBe(true);
    expect(errorOf(bogus.body)).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("options.format: Invalid option"),
    });
  });
});
