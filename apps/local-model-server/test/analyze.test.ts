import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLevelsNested } from "@local-mcp/core/testing";
import { PROJECT, configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

type Analysis = { analysis: Record<string, Record<string, unknown>> };

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

describe("local_analyze (TypeScript compiler API)", () => {
  it("lists exports", async () => {
    const { body } = await server.call("local_analyze", {
      task_type: "exports",
      files: ["src/types/user.ts", "src/utils/relationships.ts"],
    });
    expect(body).toMatchObject({ success: true, engine: "deterministic" });
    expect(dataOf<Analysis>(body).analysis).toEqual({
      "src/types/user.ts": { exports: ["Relationship", "FamilyMember", "Role"] },
      "src/utils/relationships.ts": { exports: ["relationshipOf", "isParent"] },
    });
  });

  it("lists functions with line and parameters: declarations, arrow functions, class members, CommonJS", async () => {
    const files = ["src/stores/familyStore.ts", "src/stores/feedStore.ts", "src/utils/relationships.ts", "src/legacy.js"];
    // minimal (the default): the names.
    const names = await server.call("local_analyze", { task_type: "functions", files });
    expect(dataOf<Analysis>(names.body).analysis).toEqual({
      "src/stores/familyStore.ts": { functions: [{ name: "describeMember" }] },
      "src/stores/feedStore.ts": { functions: [{ name: "loadData" }, { name: "FeedCache.constructor" }, { name: "FeedCache.get" }] },
      "src/utils/relationships.ts": { functions: [{ name: "relationshipOf" }, { name: "isParent" }] },
      "src/legacy.js": { functions: [{ name: "readConfig" }] },
    });
    const { body } = await server.call("local_analyze", { task_type: "functions", files, response_level: "standard" });
    expect(dataOf<Analysis>(body).analysis).toMatchObject({
      "src/stores/familyStore.ts": { functions: [{ name: "describeMember", line: 15, params: ["member", "viewer"] }] },
      "src/stores/feedStore.ts": {
        functions: [
          { name: "loadData", line: 4, params: ["limit"] },
          { name: "FeedCache.constructor", line: 12, params: ["size"] },
          { name: "FeedCache.get", line: 14, params: ["key"] },
        ],
      },
      "src/utils/relationships.ts": {
        functions: [
          { name: "relationshipOf", line: 3, params: ["member", "_viewer"] },
          { name: "isParent", line: 5, params: ["member"] },
        ],
      },
      "src/legacy.js": { functions: [{ name: "readConfig", line: 5, params: ["dir"] }] },
    });
  });

  it("lists interfaces, type aliases and enums, exported or not", async () => {
    // minimal (the default): the names over all files; which file and line from standard.
    const names = await server.call("local_analyze", { task_type: "types", files: ["src/types/user.ts", "src/stores/feedStore.ts"] });
    expect(dataOf(names.body)).toEqual({ types: ["Relationship", "FamilyMember", "Role", "InternalNote"] });
    const { body } = await server.call("local_analyze", { task_type: "types", files: ["src/types/user.ts"], response_level: "full" });
    const entry = dataOf<Analysis>(body).analysis["src/types/user.ts"];
    expect(entry?.types).toEqual([
      { name: "Relationship", kind: "type", line: 1 },
      { name: "FamilyMember", kind: "interface", line: 3 },
      { name: "Role", kind: "enum", line: 11 },
      { name: "InternalNote", kind: "interface", line: 16 },
    ]);
    expect((entry?.details as { types: unknown }).types).toEqual([
      { name: "Relationship", exported: true },
      { name: "FamilyMember", exported: true },
      { name: "Role", exported: true },
      { name: "InternalNote", exported: false },
    ]);
  });

  it("follows relative imports to the given depth, naming packages and builtins", async () => {
    // minimal (the default): the files and packages each file depends on; the imports from standard.
    const minimal = await server.call("local_analyze", { task_type: "dependencies", files: ["src/stores/feedStore.ts"] });
    expect(dataOf<Analysis>(minimal.body).analysis).toEqual({
      "src/stores/feedStore.ts": { dependencies: { internal: ["src/stores/familyStore.ts"], external: ["node:path"] } },
    });
    const shallow = await server.call("local_analyze", {
      task_type: "dependencies",
      files: ["src/stores/feedStore.ts"],
      response_level: "standard",
    });
    expect(dataOf<Analysis>(shallow.body).analysis).toMatchObject({
      "src/stores/feedStore.ts": {
        imports: [
          { from: "./familyStore.js", items: ["useFamilyStore"] },
          { from: "node:path", items: ["* as path"] },
        ],
        dependencies: { internal: ["src/stores/familyStore.ts"], external: ["node:path"] },
      },
    });
    const deep = await server.call("local_analyze", {
      task_type: "dependencies",
      files: ["src/stores/feedStore.ts"],
      depth: 3,
      response_level: "standard",
    });
    const analysis = dataOf<Analysis>(deep.body).analysis;
    expect(Object.keys(analysis)).toEqual([
      "src/stores/feedStore.ts",
      "src/stores/familyStore.ts",
      "src/types/user.ts",
      "src/utils/relationships.ts",
    ]);
    expect(analysis["src/stores/familyStore.ts"]).toMatchObject({
      dependencies: { internal: ["src/types/user.ts", "src/utils/relationships.ts"], external: ["zustand"] },
      depth: 1,
      lines: { imports: [1, 2, 3] },
    });
    expect(analysis["src/types/user.ts"]).toMatchObject({ depth: 2, dependencies: { internal: [], external: [] } });
    const index = await server.call("local_analyze", {
      task_type: "dependencies",
      files: ["src/stores/index.ts", "src/legacy.js"],
      response_level: "standard",
    });
    expect(dataOf<Analysis>(index.body).analysis).toMatchObject({
      "src/stores/index.ts": {
        imports: [],
        dependencies: { internal: ["src/stores/familyStore.ts", "src/stores/feedStore.ts"], external: [] },
      },
      "src/legacy.js": {
        imports: [
          { from: "fs", items: ["fs"] },
          { from: "path", items: ["join"] },
        ],
        dependencies: { internal: [], external: ["node:fs", "node:path"] },
      },
    });
  });

  it("nests its levels; full carries only the analysis asked for", async () => {
    const [minimal, standard, full] = await Promise.all(
      (["minimal", "standard", "full"] as const).map(async (level) => {
        const {
          tokens_saved: _saved,
          tokens_over: _over,
          ...rest
        } = (await server.call("local_analyze", { task_type: "exports", files: ["src/stores/feedStore.ts"], response_level: level })).body;
        return rest;
      }),
    );
    assertLevelsNested({ minimal, standard, full });
    const entry = dataOf<Analysis>(full ?? {}).analysis["src/stores/feedStore.ts"] ?? {};
    expect(Object.keys(entry)).toEqual(["exports", "depth", "lines", "file", "details"]);
    expect(Object.keys(entry.lines as object)).toEqual(["exports"]);
    expect(Object.keys(entry.details as object)).toEqual(["exports"]);
  });

  it("answers Python from core's tree-sitter layer, refuses a language none reads, and sends it to the model only with engine model", async () => {
    const { body } = await server.call("local_analyze", { task_type: "functions", files: ["scripts/tool.py"] });
    expect(body).toMatchObject({ success: true, engine: "deterministic" });
    expect(dataOf<Analysis>(body).analysis).toEqual({ "scripts/tool.py": { functions: [{ name: "main" }] } });
    const refused = await server.call("local_analyze", { task_type: "functions", files: ["README.md"] });
    expect(errorOf(refused.body)).toMatchObject({ code: "INVALID_INPUT", details: { unsupported: ["README.md"] } });
    const forced = await server.call("local_analyze", { task_type: "functions", files: ["README.md"], engine: "model" });
    expect(errorOf(forced.body)).toMatchObject({ code: "NOT_READY", recoverable: false });
  });

  it("answers NOT_FOUND for a missing file", async () => {
    const { body } = await server.call("local_analyze", { task_type: "exports", files: ["src/nope.ts"] });
    expect(errorOf(body)).toMatchObject({ code: "NOT_FOUND", status: 404, message: "File not found: src/nope.ts" });
  });
});
