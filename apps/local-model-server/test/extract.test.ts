import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLevelsNested } from "@local-mcp/core/testing";
import { PROJECT, configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

const PLAN_1 = ".planning/phases/01-data-foundation/01-01-PLAN.md";
const PLAN_2 = ".planning/phases/01-data-foundation/01-02-PLAN.md";
const SUMMARY_1 = ".planning/phases/01-data-foundation/01-01-SUMMARY.md";
const BROKEN = ".planning/phases/02-feed/02-01-PLAN.md";

type Counts = { files: number; found: number; entries: number; failed?: number };
type Results = {
  counts: Counts;
  results: Record<
    string,
    { found: boolean; data: unknown; line_numbers?: (number | null)[]; error?: string; details?: Record<string, unknown> }
  >;
};

let server: Connected;
let state: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  state = await tempDir();
  server = await connect(configFor({ LOCAL_MODEL_ROOTS: PROJECT, LOCAL_MODEL_STATE_DIR: state.path }));
});
afterAll(async () => {
  await server.close();
  await state.remove();
});

describe("local_extract frontmatter (YAML)", () => {
  it("extracts the requested fields of PLAN files exactly, as the seed's example asks", async () => {
    const { isError, body } = await server.call("local_extract", {
      task_type: "frontmatter",
      files: [PLAN_1, PLAN_2],
      extract: { fields: ["wave", "autonomous", "depends_on"], format: "json" },
    });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ success: true, error: null, confidence: 1, tokens_used: 0, engine: "deterministic" });
    // Without response_level the tool answers at standard: the data, with the line of each field.
    expect(dataOf<Results>(body)).toEqual({
      counts: { files: 2, found: 2, entries: 6 },
      results: {
        [PLAN_1]: { found: true, data: { wave: 1, autonomous: true, depends_on: [] }, line_numbers: [5, 8, 6] },
        [PLAN_2]: { found: true, data: { wave: 2, autonomous: false, depends_on: ["01-01"] }, line_numbers: [5, 8, 6] },
      },
    });
    expect(body.tokens_saved).toBeGreaterThan(0);
  });

  it("gives the line of each field at standard, null for an absent field, and reaches nested keys with dotted paths", async () => {
    const { body } = await server.call("local_extract", {
      task_type: "frontmatter",
      files: [PLAN_1],
      extract: { fields: ["wave", "nope", "must_haves.artifacts"] },
      response_level: "standard",
    });
    expect(dataOf<Results>(body).results[PLAN_1]).toEqual({
      found: true,
      data: {
        wave: 1,
        nope: null,
        "must_haves.artifacts": [{ path: "src/stores/familyStore.ts", provides: "Family store", exports: ["useFamilyStore"] }],
      },
      line_numbers: [5, null, 12],
    });
  });

  it("returns every field of a SUMMARY when none are named, and `key: value` strings with format list", async () => {
    const all = await server.call("local_extract", { task_type: "frontmatter", files: [SUMMARY_1] });
    expect(dataOf<Results>(all.body).results[SUMMARY_1]?.data).toEqual({
      phase: "01-data-foundation",
      plan: "01",
      subsystem: "database",
      tags: ["zustand", "mock-data"],
      requires: [],
      provides: ["Family store with mock data"],
      affects: ["02-feed"],
      "tech-stack": { added: ["zustand"], patterns: ["stores in src/stores"] },
      "key-files": { created: ["src/stores/familyStore.ts"], modified: ["src/types/user.ts"] },
      "key-decisions": ["Zustand over Redux: less boilerplate"],
      "patterns-established": ["Pattern 1: one store per domain"],
      duration: "23min",
      completed: "2025-01-15",
    });
    const list = await server.call("local_extract", {
      task_type: "frontmatter",
      files: [SUMMARY_1],
      extract: { fields: ["subsystem", "tags", "missing"], format: "list" },
    });
    expect(dataOf<Results>(list.body).results[SUMMARY_1]?.data).toEqual(['subsystem: "database"', 'tags: ["zustand","mock-data"]']);
  });

  it("reports a broken frontmatter with its file line and keeps the other files' data (success false)", async () => {
    const { isError, body } = await server.call("local_extract", {
      task_type: "frontmatter",
      files: [PLAN_1, BROKEN],
      extract: { fields: ["wave"] },
    });
    expect(isError).toBe(false);
    expect(body.success).toBe(false);
    expect(dataOf<Results>(body).counts).toEqual({ files: 2, found: 1, entries: 1, failed: 1 });
    const results = dataOf<Results>(body).results;
    expect(results[PLAN_1]).toEqual({ found: true, data: { wave: 1 }, line_numbers: [5] });
    expect(results[BROKEN]?.found).toBe(false);
    expect(results[BROKEN]?.error).toMatch(/^YAML error in the frontmatter at line 5: /);
    expect(body.error).toContain(BROKEN);
  });

  it("says found: false for a file without frontmatter", async () => {
    const { body } = await server.call("local_extract", { task_type: "frontmatter", files: ["README.md"], extract: { fields: ["wave"] } });
    expect(dataOf<Results>(body).results["README.md"]).toEqual({ found: false, data: {}, line_numbers: [] });
    expect(body.success).toBe(true);
  });

  it("checks deterministic data against a caller's JSON schema (schema_valid)", async () => {
    const schema = {
      type: "object",
      properties: { wave: { type: "integer" }, autonomous: { type: "boolean" } },
      required: ["wave", "autonomous"],
    };
    const ok = await server.call("local_extract", {
      task_type: "frontmatter",
      files: [PLAN_1, PLAN_2],
      extract: { fields: ["wave", "autonomous"] },
      schema,
    });
    expect(ok.body).toMatchObject({ success: true, schema_valid: true });
    const strict = { ...schema, properties: { ...schema.properties, wave: { type: "integer", maximum: 1 } } };
    const bad = await server.call("local_extract", {
      task_type: "frontmatter",
      files: [PLAN_1, PLAN_2],
      extract: { fields: ["wave", "autonomous"] },
      schema: strict,
    });
    expect(bad.body).toMatchObject({ success: false, schema_valid: false });
    expect(bad.body.error).toContain(`${PLAN_2}: /wave must be <= 1`);
    const invalid = await server.call("local_extract", { task_type: "frontmatter", files: [PLAN_1], schema: { type: "no-such-type" } });
    expect(invalid.isError).toBe(true);
    expect(errorOf(invalid.body).code).toBe("INVALID_INPUT");
  });
});

describe("local_extract pattern_match (bounded regex)", () => {
  it("lists matches per pattern with their lines", async () => {
    const { body } = await server.call("local_extract", {
      task_type: "pattern_match",
      files: [PLAN_1],
      extract: { patterns: ["TODO: .*", '/TASK TYPE="\\w+"/i'] },
      response_level: "standard",
    });
    expect(dataOf<Results>(body).results[PLAN_1]).toEqual({
      found: true,
      data: {
        "TODO: .*": ["TODO: replace mock data with the API in phase 3."],
        '/TASK TYPE="\\w+"/i': ['task type="auto"', 'task type="auto"'],
      },
      line_numbers: [48, 28, 36],
    });
  });

  it("anchors ^ and $ at line ends and gives columns and whole lines at full", async () => {
    const { body } = await server.call("local_extract", {
      task_type: "pattern_match",
      files: ["src/stores/feedStore.ts"],
      extract: { patterns: ["^export \\w+"], format: "list" },
      response_level: "full",
    });
    const item = dataOf<Results>(body).results["src/stores/feedStore.ts"];
    expect(item?.data).toEqual(["export async", "export default"]);
    expect(item?.details).toEqual({
      matches: [
        {
          pattern: "^export \\w+",
          line: 4,
          column: 1,
          match: "export async",
          text: "export async function loadData(limit = 20): Promise<string[]> {",
        },
        { pattern: "^export \\w+", line: 9, column: 1, match: "export default", text: "export default class FeedCache {" },
      ],
    });
  });

  it("refuses a pattern that does not compile, naming it", async () => {
    const { isError, body } = await server.call("local_extract", {
      task_type: "pattern_match",
      files: [PLAN_1],
      extract: { patterns: ["ok", "(unclosed"] },
    });
    expect(isError).toBe(true);
    expect(errorOf(body)).toMatchObject({ code: "INVALID_INPUT" });
    expect(errorOf(body).message).toMatch(/^extract\.patterns\[1\] is not a valid regular expression/);
  });
});

describe("local_extract exports / imports (TypeScript compiler API)", () => {
  it("lists exports with lines, default exports included", async () => {
    const { body } = await server.call("local_extract", {
      task_type: "exports",
      files: ["src/stores/familyStore.ts", "src/stores/feedStore.ts", "src/stores/index.ts", "src/legacy.js"],
      response_level: "standard",
    });
    expect(dataOf<Results>(body).results).toEqual({
      "src/stores/familyStore.ts": { found: true, data: ["FamilyState", "useFamilyStore", "describeMember"], line_numbers: [5, 10, 15] },
      "src/stores/feedStore.ts": { found: true, data: ["loadData", "default (FeedCache)"], line_numbers: [4, 9] },
      "src/stores/index.ts": { found: true, data: ["* from ./familyStore.js", "loadData"], line_numbers: [1, 2] },
      "src/legacy.js": { found: true, data: ["readConfig", "version"], line_numbers: [9, 9] },
    });
  });

  it("maps each imported module to its names (json) or lists modules (list)", async () => {
    const json = await server.call("local_extract", {
      task_type: "imports",
      files: ["src/stores/familyStore.ts", "src/legacy.js"],
      response_level: "standard",
    });
    expect(dataOf<Results>(json.body).results).toEqual({
      "src/stores/familyStore.ts": {
        found: true,
        data: { zustand: ["create"], "../types/user.js": ["FamilyMember"], "../utils/relationships.js": ["relationshipOf"] },
        line_numbers: [1, 2, 3],
      },
      "src/legacy.js": { found: true, data: { fs: ["fs"], path: ["join"] }, line_numbers: [2, 3] },
    });
    const list = await server.call("local_extract", {
      task_type: "imports",
      files: ["src/stores/feedStore.ts"],
      extract: { format: "list" },
    });
    expect(dataOf<Results>(list.body).results["src/stores/feedStore.ts"]?.data).toEqual(["./familyStore.js", "node:path"]);
  });

  it("answers Python exports exactly; a file in no supported language is INVALID_INPUT, and NOT_READY only with engine model", async () => {
    const python = await server.call("local_extract", { task_type: "exports", files: ["scripts/tool.py"] });
    expect(python.body).toMatchObject({ success: true, engine: "deterministic" });
    expect(dataOf<Results>(python.body).results["scripts/tool.py"]).toEqual({ found: true, data: ["main"], line_numbers: [4] });
    const auto = await server.call("local_extract", { task_type: "exports", files: ["README.md"] });
    expect(auto.isError).toBe(true);
    expect(errorOf(auto.body)).toMatchObject({ code: "INVALID_INPUT" });
    expect(errorOf(auto.body).message).toContain("README.md");
    const forced = await server.call("local_extract", { task_type: "exports", files: ["README.md"], engine: "model" });
    expect(errorOf(forced.body)).toMatchObject({ code: "NOT_READY", status: 503, recoverable: false });
    expect(errorOf(forced.body).suggestion).toMatch(/^Handle this task directly/);
  });
});

describe("local_extract structure", () => {
  it("outlines a GSD PLAN: its blocks, tasks by name, and headings", async () => {
    const { body } = await server.call("local_extract", { task_type: "structure", files: [PLAN_1], response_level: "standard" });
    expect(dataOf<Results>(body).results[PLAN_1]).toEqual({
      found: true,
      data: {
        outline: [
          { level: 1, kind: "block", name: "objective" },
          { level: 1, kind: "block", name: "tasks" },
          { level: 2, kind: "block", name: "task (auto): Task 1: Update FamilyMember type" },
          { level: 2, kind: "block", name: "task (auto): Task 2: Create family store" },
          { level: 2, kind: "heading", name: "Notes" },
        ],
      },
      line_numbers: [19, 26, 28, 36, 46],
    });
  });

  it("outlines Markdown headings (ATX and Setext, not inside code fences) and TS symbols", async () => {
    const { body } = await server.call("local_extract", {
      task_type: "structure",
      files: ["README.md", "src/stores/feedStore.ts"],
      extract: { format: "list" },
    });
    expect(dataOf<Results>(body).results).toEqual({
      "README.md": { found: true, data: ["# Family App", "## Setup", "## Stores", "### familyStore"], line_numbers: [1, 6, 13, 14] },
      "src/stores/feedStore.ts": {
        found: true,
        data: ["function loadData", "class FeedCache", "  property entries", "  constructor constructor", "  method get"],
        line_numbers: [4, 9, 10, 12, 14],
      },
    });
  });

  it("asks for a model to summarize prose", async () => {
    const { body } = await server.call("local_extract", { task_type: "structure", files: ["README.md"], extract: { summarize: true } });
    expect(errorOf(body).code).toBe("NOT_READY");
  });
});

describe("local_extract response levels", () => {
  it("nests minimal ⊆ standard ⊆ full and adds per-file stats at full", async () => {
    const args = { task_type: "frontmatter", files: [PLAN_1, SUMMARY_1], extract: { fields: ["phase", "wave"] } };
    const levels = await Promise.all(
      (["minimal", "standard", "full"] as const).map(
        async (level) => (await server.call("local_extract", { ...args, response_level: level })).body,
      ),
    );
    // tokens_saved is measured on the response as rendered, so it differs between levels by design.
    const [minimal, standard, full] = levels.map(({ tokens_saved: _saved, tokens_over: _over, ...rest }) => rest);
    assertLevelsNested({ minimal, standard, full });
    expect(Object.keys(minimal ?? {})).toEqual(["success", "data", "error", "confidence", "tokens_used", "engine"]);
    // minimal is the summary alone; the results per file come at standard.
    expect(minimal?.data).toEqual({ counts: { files: 2, found: 2, entries: 3 } });
    expect((standard?.data as Results).results[PLAN_1]).toEqual({
      found: true,
      data: { phase: "01-data-foundation", wave: 1 },
      line_numbers: [2, 5],
    });
    expect((full?.data as Results).results[PLAN_1]).toMatchObject({
      file: { path: PLAN_1, bytes: expect.any(Number), tokens_estimate: expect.any(Number) },
    });
    expect(full?.stats).toMatchObject({ input_tokens_estimate: expect.any(Number), response_tokens_estimate: expect.any(Number) });
    const saved = levels.map((b) => b.tokens_saved as number);
    expect(saved[0]).toBeGreaterThan(saved[1] as number);
    expect(saved[1]).toBeGreaterThan(saved[2] as number);
  });
});
