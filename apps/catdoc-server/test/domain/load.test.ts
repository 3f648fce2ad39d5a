/** Loading category.yaml and config.yaml: the original's files as they are, and clear errors. */
import { describe, expect, it } from "vitest";
import {
  CatDocParseError,
  ProjectNotInitializedError,
  loadProject,
  parseCategoryYaml,
  parseProjectConfig,
} from "../../src/domain/index.js";
import { originalFile, useTempDirs, writeProject } from "./helpers.js";

const tempDir = useTempDirs();

function parseError(text: string): CatDocParseError {
  try {
    parseCategoryYaml(text);
  } catch (error) {
    if (error instanceof CatDocParseError) return error;
    throw error;
  }
  throw new Error("expected a CatDocParseError");
}

describe("loading category.yaml", () => {
  it.each([
    ["examples/math-docs/category.yaml", 2, 1],
    ["examples/dev-project/category.yaml", 5, 4],
    ["tests/fixtures/simple-category.yaml", 1, 0],
    ["tests/fixtures/multi-domain.yaml", 2, 2],
    ["tests/fixtures/invalid-category.yaml", 1, 1],
  ])("reads the original's %s unchanged", async (path, categories, functors) => {
    const model = parseCategoryYaml(await originalFile(path));
    expect(model.categories).toHaveLength(categories);
    expect(model.functors).toHaveLength(functors);
  });

  it("keeps the values it reads (ids, metadata, mappings)", async () => {
    const model = parseCategoryYaml(await originalFile("examples/math-docs/category.yaml"));
    const algebra = model.categories[0]!;
    expect(algebra.objects[1]).toEqual({
      id: "groups",
      title: "Group Theory",
      domain: "mathematics",
      metadata: { level: "intermediate", prerequisites: ["sets"] },
    });
    expect(algebra.morphisms.find((m) => m.id === "id-sets")).toEqual({
      id: "id-sets",
      name: "id_sets",
      source: "sets",
      target: "sets",
      metadata: { isIdentity: true },
    });
    expect(model.functors[0]!.objectMapping["rings"]).toBe("sets");
  });

  it("reads empty sections as empty lists and numeric ids as text", () => {
    const model = parseCategoryYaml(
      "categories:\n  - id: c\n    name: C\n    objects:\n      - id: 2024\n        title: Year\n        domain: d\n        metadata:\n    morphisms:\nfunctors:\nnaturalTransformations:\n",
    );
    expect(model).toEqual({
      categories: [{ id: "c", name: "C", objects: [{ id: "2024", title: "Year", domain: "d" }], morphisms: [] }],
      functors: [],
      naturalTransformations: [],
    });
    expect(parseCategoryYaml("")).toEqual({ categories: [], functors: [], naturalTransformations: [] });
  });

  it("puts a wrong shape at the line and column of the offending node (the original's malformed.yaml)", async () => {
    const error = parseError(await originalFile("tests/fixtures/malformed.yaml"));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^\.catdoc\/category\.yaml:8:11: categories\[0\]\.objects\[0\]\.title: expected text, got a list/);
    expect([error.line, error.column]).toEqual([8, 11]);
    // The morphism lacking name, source and target is pointed at where it starts (line 11).
    expect(error.issues.slice(1).map((i) => [i.path, i.line, i.column, i.message])).toEqual([
      ["categories[0].morphisms[0].name", 11, 9, "required field is missing"],
      ["categories[0].morphisms[0].source", 11, 9, "required field is missing"],
      ["categories[0].morphisms[0].target", 11, 9, "required field is missing"],
    ]);
  });

  it("puts a wrong type deep in a functor at its value", () => {
    const error = parseError(
      "categories: []\nfunctors:\n  - id: F\n    name: F\n    sourceCategory: a\n    targetCategory: b\n    objectMapping: just-text\n",
    );
    expect(error.issues[0]).toMatchObject({ path: "functors[0].objectMapping", line: 7, column: 20 });
  });

  it("gives line and column for YAML syntax errors", () => {
    const duplicate = parseError("categories: []\nfunctors: []\ncategories: []\n");
    expect(duplicate.issues[0]).toMatchObject({ line: 3, column: 1, message: "Map keys must be unique" });
    expect(duplicate.message).toBe(".catdoc/category.yaml:3:1: Map keys must be unique");
    const unclosed = parseError('categories:\n  - id: "open\n    name: x\n');
    expect(unclosed.line).toBeGreaterThanOrEqual(2);
    expect(unclosed.column).toBeGreaterThan(0);
    expect(unclosed.message).toMatch(/^\.catdoc\/category\.yaml:\d+:\d+: /);
  });

  it("rejects a file whose top level is not a mapping, at line 1", () => {
    expect(parseError("- a\n- b\n").issues[0]).toMatchObject({ path: "", line: 1, column: 1 });
  });

  it("reports a project without .catdoc/category.yaml as not initialized (NOT_FOUND)", async () => {
    const root = await tempDir();
    await expect(loadProject(root)).rejects.toBeInstanceOf(ProjectNotInitializedError);
    await expect(loadProject(root)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("loading config.yaml", () => {
  const original = [
    "project:\n  name: Demo\n  version: 1.0.0",
    "neo4j:\n  uri: bolt://localhost:7687\n  enabled: false",
    "turso:\n  url: file:.catdoc/data.db\n  enabled: true",
    "dashboard:\n  port: 3000\n  host: 127.0.0.1",
    "import:\n  defaultDomain: general\n  watchMode: false",
  ].join("\n");

  it("reads the original's config, keeping keys it does not use", async () => {
    const root = await writeProject(await tempDir(), "categories: []\n", { config: original });
    const project = await loadProject(root);
    expect(project.settings).toEqual({
      projectName: "Demo",
      defaultDomain: "general",
      dashboard: { port: 3000, host: "127.0.0.1" },
      documentRoots: ["."],
    });
    expect(project.config["neo4j"]).toEqual({ uri: "bolt://localhost:7687", enabled: false });
    expect(project.config["turso"]).toMatchObject({ enabled: true });
  });

  it("defaults every setting when config.yaml is absent", async () => {
    const root = await writeProject(await tempDir("catdoc-named-"), "categories: []\n");
    const project = await loadProject(root);
    expect(project.settings.projectName).toMatch(/^catdoc-named-/);
    expect(project.settings.dashboard).toEqual({ port: 3917, host: "127.0.0.1" });
  });

  it("names config.yaml, line and column for a wrong value", () => {
    expect(() => parseProjectConfig("dashboard:\n  port: lots\n")).toThrow(/^\.catdoc\/config\.yaml:2:9: dashboard\.port: /);
  });
});
