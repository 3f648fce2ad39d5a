/**
 * The tools' contract through a real client: response levels nest (minimal ⊆ standard ⊆ full),
 * coded errors with suggestions, versions and history, delete keeping the history, filters.
 */
import { nestingDepth, silentLogger } from "@local-mcp/core";
import { assertLevelsNested } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverServicesOf } from "../src/server.js";
import { saveFunctionTool } from "../src/tools/save-function.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { callTool, connectSolo, tempLibrary } from "./helpers/test-library.js";
import type { SoloConnection, TempLibrary } from "./helpers/test-library.js";

let library: TempLibrary;
let solo: SoloConnection;

const WORDS = 'def count_words(text: str) -> int:\n    """Count the words in text."""\n    return len(text.split())\n';

beforeAll(async () => {
  library = tempLibrary();
  solo = await connectSolo(library.dbPath);
  await commitUnchecked(solo.services, { name: "count_words", code: WORDS, description: "Count the words in a text", tags: ["text"] });
  await commitUnchecked(solo.services, {
    name: "reverse_words",
    code: 'def reverse_words(text: str) -> str:\n    """Reverse the order of words."""\n    return " ".join(reversed(text.split()))\n',
    description: "Reverse the order of the words in a sentence",
    tags: ["text", "fun"],
  });
  await commitUnchecked(solo.services, {
    name: "count_words",
    code: WORDS.replace("Count the words", "Count words"),
    description: "Count the words in a text (v2)",
    tags: ["text"],
  });
});

afterAll(async () => {
  await solo?.close();
  library?.remove();
});

async function atLevels(name: string, args: Record<string, unknown>) {
  const [minimal, standard, full] = await Promise.all(
    (["minimal", "standard", "full"] as const).map((level) => callTool(solo.client, name, { ...args, response_level: level })),
  );
  for (const answer of [minimal, standard, full]) expect(answer?.isError).toBe(false);
  const levels = { minimal: minimal?.body, standard: standard?.body, full: full?.body };
  assertLevelsNested(levels);
  return levels;
}

describe("response levels", () => {
  it("nest for every reading tool", async () => {
    const search = await atLevels("search_functions", { query: "number of words in a string" });
    expect(Object.keys((search.minimal as { results: object[] }).results[0] ?? {}).sort()).toEqual(["name", "score", "status", "version"]);
    expect((search.full as { results: { similarity?: number }[] }).results[0]?.similarity).toBeGreaterThan(0);
    const get = await atLevels("get_function", { name: "count_words" });
    // minimal: which version, its status and signature (issue 16: ≤ 25 % of full); the code from standard, get_function's default.
    expect(Object.keys(get.minimal as object).sort()).toEqual(["name", "signature", "status", "version"]);
    expect((get.standard as { code: string }).code).toBe(WORDS.replace("Count the words", "Count words"));
    const plain = await callTool(solo.client, "get_function", { name: "count_words" });
    expect(plain.body).toEqual(get.standard);
    expect((get.full as { gate_report: { status: string } }).gate_report.status).toBe("unverified");
    await atLevels("list_functions", {});
    const history = await atLevels("get_function_history", { name: "count_words" });
    expect((history.full as { versions: { code: string }[] }).versions[1]?.code).toBe(WORDS);
  });

  it("nest for save_function (one save rendered at each level), whose own default is standard", async () => {
    const args = {
      name: "shout",
      code: 'def shout(text: str) -> str:\n    """Upper-case text."""\n    return text.upper()\n',
      description: "Upper-case a text",
      skip_tests: true,
    };
    const tool = saveFunctionTool(serverServicesOf(solo.services));
    const response = await tool.handler(
      { ...args, tags: [], dependencies: [], test_cases: [] },
      { signal: new AbortController().signal, progress: () => undefined, level: "full", logger: silentLogger },
    );
    const levels = {
      minimal: response.toResponse("minimal"),
      standard: response.toResponse("standard"),
      full: response.toResponse("full"),
    };
    assertLevelsNested(levels);
    for (const body of Object.values(levels)) expect(tool.output.safeParse(body).success).toBe(true);
    expect(levels.minimal).toMatchObject({ name: "shout", status: "unverified", critic: "off" });
    const test = (levels.full as { gate_report: { steps: { step: string; outcome?: string }[] } }).gate_report.steps[2];
    expect(test).toMatchObject({ step: "test", outcome: "skipped" });
    // Through the protocol, without response_level, save_function answers at its own default: standard.
    const byDefault = await callTool(solo.client, "save_function", args);
    expect(Object.keys(byDefault.body)).toEqual(expect.arrayContaining(["gate", "code_changed"]));
    expect(Object.keys(byDefault.body)).not.toContain("gate_report");
  });
});

describe("errors", () => {
  it("NOT_FOUND for an unknown function, with a suggestion", async () => {
    const answer = await callTool(solo.client, "get_function", { name: "no_such_function" });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({ error: { code: "NOT_FOUND", status: 404, recoverable: true } });
    expect((answer.body as { error: { suggestion: string } }).error.suggestion).toMatch(/search_functions/);
  });

  it("INVALID_INPUT for a dependency that is a pip option or URL, before any work", async () => {
    for (const dependency of ["--index-url=http://evil.example/simple", "git+https://example.com/x.git", "pkg @ file:///tmp/x"]) {
      const answer = await callTool(solo.client, "save_function", {
        name: "count_words",
        code: WORDS,
        description: "x",
        dependencies: [dependency],
      });
      expect(answer.body).toMatchObject({ error: { code: "INVALID_INPUT" } });
    }
  });

  it("INVALID_INPUT for test-case values nested too deep (10,000 levels: no stack overflow, no INTERNAL)", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const answer = await callTool(solo.client, "save_function", {
      name: "count_words",
      code: WORDS,
      description: "x",
      test_cases: [{ input: { text: deep }, expected: 1 }],
    });
    expect(answer.body).toMatchObject({ error: { code: "INVALID_INPUT" } });
    expect(JSON.stringify(answer.body)).toMatch(/test_cases/);
    // 32 levels are fine as far as validation goes (the save then runs the gate).
    expect(nestingDepth({ input: { text: [[[1]]] } }, 40)).toBe(5);
  });

  it("INVALID_INPUT when the code does not define the named function", async () => {
    const answer = await callTool(solo.client, "save_function", { name: "other_name", code: WORDS, description: "x" });
    expect(answer.body).toMatchObject({ error: { code: "INVALID_INPUT", details: { fields: [{ field: "code" }] } } });
  });
});

describe("versions, delete and filters", () => {
  it("fetches a given version and says which is the latest", async () => {
    const v1 = await callTool(solo.client, "get_function", { name: "count_words", version: 1, response_level: "standard" });
    expect(v1.body).toMatchObject({ version: 1, code: WORDS, latest_version: 2, description: "Count the words in a text" });
    const missing = await callTool(solo.client, "get_function", { name: "count_words", version: 9 });
    expect(missing.body).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("filters lists by tag and text", async () => {
    const fun = await callTool(solo.client, "list_functions", { tags: ["fun"] });
    expect((fun.body as { functions: { name: string }[] }).functions.map((f) => f.name)).toEqual(["reverse_words"]);
    const text = await callTool(solo.client, "list_functions", { text: "COUNT" });
    expect((text.body as { total: number }).total).toBe(1);
  });

  it("deletes a function but keeps its history", async () => {
    const deleted = await callTool(solo.client, "delete_function", { name: "reverse_words", response_level: "standard" });
    expect(deleted.body).toEqual({ name: "reverse_words", deleted: true, versions_kept: 1 });
    expect((await callTool(solo.client, "get_function", { name: "reverse_words" })).body).toMatchObject({ error: { code: "NOT_FOUND" } });
    const search = await callTool(solo.client, "search_functions", { query: "reverse the words of a sentence" });
    expect((search.body as { results: { name: string }[] }).results.map((r) => r.name)).not.toContain("reverse_words");
    const history = await callTool(solo.client, "get_function_history", { name: "reverse_words" });
    expect(history.body).toMatchObject({ name: "reverse_words", deleted: true, versions: [{ version: 1 }] });
    const old = await callTool(solo.client, "get_function", { name: "reverse_words", version: 1, response_level: "standard" });
    expect(old.body).toMatchObject({ version: 1, latest_version: null });
    expect((await callTool(solo.client, "delete_function", { name: "reverse_words" })).body).toMatchObject({
      error: { code: "NOT_FOUND" },
    });
  });
});
