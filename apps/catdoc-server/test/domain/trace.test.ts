/** Trace: shortest path, all simple paths, and tracing across categories. */
import { describe, expect, it } from "vitest";
import { CatDocNotFoundError, indexProject, parseCategoryYaml, traceAcross, traceObjects } from "../../src/domain/index.js";
import type { ProjectIndex } from "../../src/domain/index.js";
import { originalFile, squareModel } from "./helpers.js";

const arrows: [string, string, string][] = [
  ["m1", "s", "a"],
  ["m2", "a", "t"],
  ["m3", "s", "b"],
  ["m4", "b", "c"],
  ["m5", "c", "t"],
  ["m6", "a", "b"],
  ["m7", "t", "s"],
];
const objects = ["s", "a", "b", "c", "t", "island"];
const netYaml = [
  "categories:",
  "  - id: net",
  "    name: Net",
  "    objects:",
  ...objects.map((id) => `      - { id: ${id}, title: ${id}, domain: test }`),
  "    morphisms:",
  ...arrows.map(([id, source, target]) => `      - { id: ${id}, name: name-${id}, source: ${source}, target: ${target} }`),
  ...objects.map((id) => `      - { id: id-${id}, name: id_${id}, source: ${id}, target: ${id}, metadata: { isIdentity: true } }`),
  "  - id: other",
  "    name: Other",
  "    objects:",
  "      - { id: x, title: x, domain: test }",
].join("\n");

const net: ProjectIndex = indexProject(parseCategoryYaml(netYaml));
const ids = (path: { morphisms: { id: string }[] }) => path.morphisms.map((m) => m.id);

describe("trace inside a category", () => {
  it("finds the shortest path breadth-first, listing morphisms with ids and names", () => {
    const result = traceObjects(net, "s", "t");
    expect(result).toMatchObject({ source: "s", target: "t", categoryId: "net", found: true, truncated: false });
    expect(result.shortestPath).toEqual({
      categoryId: "net",
      objectIds: ["s", "a", "t"],
      morphisms: [
        { id: "m1", name: "name-m1", source: "s", target: "a" },
        { id: "m2", name: "name-m2", source: "a", target: "t" },
      ],
      length: 2,
    });
    expect(result.paths).toEqual([result.shortestPath]);
  });

  it("lists all simple paths sorted by length, never looping through the cycle t → s", () => {
    const result = traceObjects(net, "s", "t", { all: true });
    expect(result.paths.map(ids)).toEqual([
      ["m1", "m2"],
      ["m3", "m4", "m5"],
      ["m1", "m6", "m4", "m5"],
    ]);
    expect(result.truncated).toBe(false);
  });

  it("respects the depth bound and the cap on paths", () => {
    expect(traceObjects(net, "s", "t", { all: true, maxDepth: 3 }).paths.map(ids)).toEqual([
      ["m1", "m2"],
      ["m3", "m4", "m5"],
    ]);
    const capped = traceObjects(net, "s", "t", { all: true, maxPaths: 2 });
    expect(capped.paths.map((p) => p.length)).toEqual([2, 3]);
    expect(capped.truncated).toBe(true);
    expect(() => traceObjects(net, "s", "t", { all: true, maxDepth: 0 })).toThrow(/maxDepth/);
  });

  it("reports an unreachable object as not found, and a path to itself as its identity", () => {
    expect(traceObjects(net, "s", "island", { all: true })).toMatchObject({ found: false, shortestPath: null, paths: [] });
    expect(traceObjects(net, "s", "s").shortestPath).toMatchObject({ objectIds: ["s", "s"], length: 1, morphisms: [{ id: "id-s" }] });
  });

  it("names unknown ids and their category in NOT_FOUND errors", () => {
    expect(() => traceObjects(net, "nope", "t")).toThrow(new CatDocNotFoundError("object", "nope"));
    expect(() => traceObjects(net, "nope", "t")).toThrow("Object 'nope' not found");
    expect(() => traceObjects(net, "s", "zzz")).toThrow("Object 'zzz' not found in category 'net'");
    expect(() => traceObjects(net, "s", "t", { categoryId: "nope" })).toThrow("Category 'nope' not found");
    expect(() => traceObjects(net, "s", "x")).toThrow(
      expect.objectContaining({
        code: "INVALID_INPUT",
        message: expect.stringMatching(/'s' \(category 'net'\) and 'x' \(category 'other'\) are in different categories/),
      }),
    );
    expect(() => traceObjects(net, "s", "x", { categoryId: "other" })).toThrow("Object 's' not found in category 'other'");
  });
});

describe("trace across categories", () => {
  it("follows the four functors of dev-project from a requirement to infrastructure", async () => {
    const index = indexProject(parseCategoryYaml(await originalFile("examples/dev-project/category.yaml")));
    const result = traceAcross(index, "req-user-management", "infrastructure");
    expect(result.found).toBe(true);
    const [path] = result.paths;
    expect(path?.steps.map((s) => [s.kind, s.id, s.toObject])).toEqual([
      ["functor", "specify-functor", "spec-user-api"],
      ["functor", "design-functor", "design-user-service"],
      ["functor", "implement-functor", "internal-user-repository"],
      ["functor", "deploy-functor", "infra-k8s-user"],
    ]);
    expect(path).toMatchObject({ resultObject: "infra-k8s-user", resultCategory: "infrastructure", arrival: null, length: 4 });
    expect(path?.steps[0]).toMatchObject({
      name: "SpecifyFunctor (要件→仕様)",
      fromCategory: "requirements",
      toCategory: "specifications",
    });
  });

  it("completes the path to a target object inside the target category", async () => {
    const index = indexProject(parseCategoryYaml(await originalFile("examples/dev-project/category.yaml")));
    const result = traceAcross(index, "req-user-management", "infrastructure", { targetObjectId: "infra-database" });
    expect(result.paths[0]?.arrival?.morphisms).toEqual([
      { id: "infra-user-uses-db", name: "connects", source: "infra-k8s-user", target: "infra-database" },
    ]);
    expect(result.paths[0]?.length).toBe(5);
    expect(() => traceAcross(index, "req-user-management", "infrastructure", { targetObjectId: "spec-user-api" })).toThrow(
      "Object 'spec-user-api' not found in category 'infrastructure'",
    );
    expect(() => traceAcross(index, "req-user-management", "nowhere")).toThrow("Category 'nowhere' not found");
  });

  it("takes natural-transformation components as steps inside the target category", () => {
    const index = indexProject(squareModel(true));
    const result = traceAcross(index, "a", "D");
    expect(result.paths.map((p) => [p.steps.map((s) => s.id), p.resultObject])).toEqual([
      [["F"], "x"],
      [["G"], "x2"],
      [["F", "eta"], "x2"],
    ]);
    expect(result.paths[2]?.steps[1]).toMatchObject({
      kind: "naturalTransformation",
      componentOf: "a",
      morphism: { id: "eta-a", name: "η_a" },
    });
  });

  it("finds nothing when no functor leads there, and a zero-step path inside the same category", async () => {
    const index = indexProject(parseCategoryYaml(await originalFile("examples/math-docs/category.yaml")));
    expect(traceAcross(index, "groups", "topology")).toMatchObject({ found: false, paths: [] });
    expect(traceAcross(index, "groups", "algebra", { targetObjectId: "fields" }).paths[0]).toMatchObject({
      steps: [],
      resultObject: "groups",
      arrival: { objectIds: ["groups", "rings", "fields"] },
      length: 2,
    });
  });
});
