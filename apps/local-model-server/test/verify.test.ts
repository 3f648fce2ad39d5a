import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLevelsNested } from "@local-mcp/core/testing";
import { PROJECT, configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

type Verified = { passed: number; failed: number; results: Record<string, unknown>[] };

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

describe("local_verify with exact conditions", () => {
  it("runs the seed's must_haves example with line evidence", async () => {
    const args = {
      task_type: "must_haves",
      checks: [
        {
          id: "DATA-01",
          description: "familyStore exports useFamilyStore",
          file: "src/stores/familyStore.ts",
          condition: { type: "exports", value: "useFamilyStore" },
        },
        {
          id: "DATA-02",
          description: "feedStore has loadData function",
          file: "src/stores/feedStore.ts",
          condition: { type: "contains", value: "loadData" },
        },
      ],
    };
    const { isError, body } = await server.call("local_verify", args);
    expect(isError).toBe(false);
    expect(body).toMatchObject({ success: true, engine: "deterministic", confidence: 1, tokens_used: 0 });
    // minimal (the default): pass or fail per check id.
    expect(dataOf<Verified>(body)).toEqual({
      passed: 2,
      failed: 0,
      results: [
        { id: "DATA-01", status: "pass" },
        { id: "DATA-02", status: "pass" },
      ],
    });
    const standard = await server.call("local_verify", { ...args, response_level: "standard" });
    expect(dataOf<Verified>(standard.body)).toMatchObject({
      passed: 2,
      failed: 0,
      results: [
        { id: "DATA-01", status: "pass", evidence: "line 10: export const useFamilyStore = create<FamilyState>((set) => ({" },
        { id: "DATA-02", status: "pass", evidence: "line 4: export async function loadData(limit = 20): Promise<string[]> {" },
      ],
    });
  });

  it("fails checks with a reason: absent text, missing export, missing import, no pattern match, missing file", async () => {
    const { body } = await server.call("local_verify", {
      response_level: "standard",
      checks: [
        { id: "C1", description: "x", file: "src/stores/feedStore.ts", condition: { type: "contains", value: "saveData" } },
        { id: "E1", description: "x", file: "src/utils/relationships.ts", condition: { type: "exports", value: "isChild" } },
        { id: "I1", description: "x", file: "src/stores/feedStore.ts", condition: { type: "imports", value: "react" } },
        { id: "P1", description: "x", file: "src/types/user.ts", condition: { type: "pattern", value: "grandparent|cousin" } },
        { id: "F1", description: "x", file: "src/stores/missing.ts", condition: { type: "contains", value: "x" } },
      ],
    });
    expect(dataOf<Verified>(body)).toMatchObject({
      passed: 0,
      failed: 5,
      results: [
        { id: "C1", status: "fail", evidence: "not found", reason: "'saveData' does not occur in src/stores/feedStore.ts" },
        {
          id: "E1",
          status: "fail",
          evidence: "not found",
          reason: "src/utils/relationships.ts does not export 'isChild'; it exports: relationshipOf, isParent",
        },
        {
          id: "I1",
          status: "fail",
          evidence: "not found",
          reason: "src/stores/feedStore.ts imports nothing named or from 'react'; it imports from: ./familyStore.js, node:path",
        },
        { id: "P1", status: "fail", evidence: "not found", reason: "no match for /grandparent|cousin/ in src/types/user.ts" },
        { id: "F1", status: "fail", evidence: "not found", reason: "src/stores/missing.ts does not exist" },
      ],
    });
    // Failing checks are a valid answer, not a failed call.
    expect(body.success).toBe(true);
  });

  it("follows `export *` re-exports, matches imports by module or by name, and takes the condition type from task_type", async () => {
    const { body } = await server.call("local_verify", {
      task_type: "imports",
      checks: [
        {
          id: "R1",
          description: "index re-exports the store hook",
          file: "src/stores/index.ts",
          condition: { type: "exports", value: "useFamilyStore" },
        },
        { id: "I1", description: "feed reads the family store", file: "src/stores/feedStore.ts", condition: { value: "useFamilyStore" } },
        { id: "I2", description: "legacy uses fs", file: "src/legacy.js", condition: { value: "fs" } },
        {
          id: "P1",
          description: "relationship union",
          file: "src/types/user.ts",
          condition: { type: "pattern", value: '"parent" \\| "child"' },
        },
      ],
      response_level: "standard",
    });
    expect(dataOf<Verified>(body).results).toEqual([
      {
        id: "R1",
        status: "pass",
        evidence: 'line 1: export * from "./familyStore.js";',
        engine: "deterministic",
        file: "src/stores/index.ts",
        line: 1,
        via: "src/stores/familyStore.ts line 10: export const useFamilyStore = create<FamilyState>((set) => ({",
      },
      {
        id: "I1",
        status: "pass",
        evidence: 'line 1: import { useFamilyStore } from "./familyStore.js";',
        engine: "deterministic",
        file: "src/stores/feedStore.ts",
        line: 1,
      },
      { id: "I2", status: "pass", evidence: 'line 2: const fs = require("fs");', engine: "deterministic", file: "src/legacy.js", line: 2 },
      {
        id: "P1",
        status: "pass",
        evidence: 'line 1: export type Relationship = "parent" | "child" | "sibling" | "spouse";',
        engine: "deterministic",
        file: "src/types/user.ts",
        line: 1,
      },
    ]);
  });

  it("checks exports and imports of a Python file exactly with core's tree-sitter layer, without a model", async () => {
    const { body } = await server.call("local_verify", {
      checks: [
        { id: "PY-1", file: "scripts/tool.py", condition: { type: "exports", value: "main" } },
        { id: "PY-2", file: "scripts/tool.py", condition: { type: "imports", value: "os" } },
        { id: "PY-3", file: "scripts/tool.py", condition: { type: "exports", value: "os" } },
        { id: "PY-4", file: "scripts/tool.py", condition: { type: "imports", value: "sys" } },
      ],
      response_level: "standard",
    });
    expect(body).toMatchObject({ success: true, engine: "deterministic", tokens_used: 0 });
    expect(dataOf<Verified>(body).results).toEqual([
      { id: "PY-1", status: "pass", evidence: "line 4: def main():", engine: "deterministic", file: "scripts/tool.py", line: 4 },
      { id: "PY-2", status: "pass", evidence: "line 1: import os", engine: "deterministic", file: "scripts/tool.py", line: 1 },
      {
        id: "PY-3",
        status: "fail",
        evidence: "not found",
        reason: "scripts/tool.py does not export 'os'; it exports: main",
        engine: "deterministic",
        file: "scripts/tool.py",
      },
      {
        id: "PY-4",
        status: "fail",
        evidence: "not found",
        reason: "scripts/tool.py does not import 'sys'; it imports: os",
        engine: "deterministic",
        file: "scripts/tool.py",
      },
    ]);
  });

  it("nests its levels", async () => {
    const args = {
      checks: [{ id: "A", description: "a", file: "src/stores/feedStore.ts", condition: { type: "contains", value: "FeedCache" } }],
    };
    const [minimal, standard, full] = await Promise.all(
      (["minimal", "standard", "full"] as const).map(async (level) => {
        const {
          tokens_saved: _saved,
          tokens_over: _over,
          ...rest
        } = (await server.call("local_verify", { ...args, response_level: level })).body;
        return rest;
      }),
    );
    assertLevelsNested({ minimal, standard, full });
    expect((full?.data as Verified).results[0]).toMatchObject({ condition: { type: "contains", value: "FeedCache" }, line: 9 });
  });
});

describe("local_verify routing to the model", () => {
  it("degrades per check without a model: each natural-language check is NOT_READY, the exact ones are answered (issue 20 item 4)", async () => {
    const checks = [
      { id: "DATA-01", description: "exports", file: "src/stores/familyStore.ts", condition: { type: "exports", value: "useFamilyStore" } },
      { id: "UX-01", description: "The feed handles an empty family gracefully", file: "src/stores/feedStore.ts" },
      { id: "DATA-02", file: "src/stores/feedStore.ts", condition: { type: "contains", value: "loadData" } },
      { id: "UX-02", description: "Loading shows a spinner", file: "src/stores/feedStore.ts" },
      { id: "DATA-03", file: "src/stores/feedStore.ts", condition: { type: "contains", value: "noSuchThing" } },
    ];
    const { isError, body } = await server.call("local_verify", { checks });
    expect(isError).toBe(false);
    expect(dataOf(body)).toEqual({
      passed: 2,
      failed: 1,
      errors: 2,
      results: [
        { id: "DATA-01", status: "pass" },
        { id: "UX-01", status: "error", code: "NOT_READY" },
        { id: "DATA-02", status: "pass" },
        { id: "UX-02", status: "error", code: "NOT_READY" },
        { id: "DATA-03", status: "fail" },
      ],
    });
    // Not everything was checked: success is false, and error names the checks and what to do.
    expect(body).toMatchObject({ success: false, engine: "deterministic", tokens_used: 0 });
    expect(body.error).toMatch(
      /^Not answered \(NOT_READY\): UX-01, UX-02\. No model is configured.* Handle this task directly, or configure a model/,
    );
    const standard = await server.call("local_verify", { checks, response_level: "standard" });
    expect((dataOf(standard.body).results as Record<string, unknown>[])[1]).toMatchObject({
      id: "UX-01",
      status: "error",
      code: "NOT_READY",
      engine: "model",
      reason: expect.stringMatching(/^No model is configured/),
    });
    // engine "model" still asks for the model for the whole call.
    const forced = await server.call("local_verify", { checks, engine: "model" });
    expect(errorOf(forced.body)).toMatchObject({ code: "NOT_READY", status: 503, recoverable: false });
  });

  it("refuses a natural-language check when the deterministic engine is forced, and a check with nothing to check", async () => {
    const forced = await server.call("local_verify", {
      engine: "deterministic",
      checks: [{ id: "UX-01", description: "handles empty", file: "src/stores/feedStore.ts" }],
    });
    expect(errorOf(forced.body).code).toBe("INVALID_INPUT");
    const empty = await server.call("local_verify", { checks: [{ id: "X", file: "src/stores/feedStore.ts" }] });
    expect(errorOf(empty.body)).toMatchObject({ code: "INVALID_INPUT", message: "Check X has neither a condition nor a description." });
  });
});
