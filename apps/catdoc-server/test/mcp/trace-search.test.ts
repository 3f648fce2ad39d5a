/** catdoc_trace (within and across categories) and catdoc_search. */
import { describe, expect, it } from "vitest";
import { call, levels, useCatDoc } from "./helpers.js";

const { example } = useCatDoc();

describe("catdoc_trace", () => {
  it("finds the shortest path inside a category, names at standard, titles at full", async () => {
    const { client } = await example("math-docs");
    const { minimal, standard, full } = await levels(client, "catdoc_trace", { sourceId: "sets", targetId: "fields" });
    expect(minimal).toEqual({
      mode: "within",
      source: "sets",
      target: "fields",
      found: true,
      length: 3,
      pathCount: 1,
      truncated: false,
      categoryId: "algebra",
      paths: [
        { length: 3, objectIds: ["sets", "groups", "rings", "fields"], morphismIds: ["set-to-group", "group-to-ring", "ring-to-field"] },
      ],
    });
    expect((standard.paths as { morphisms: { name: string }[] }[])[0]?.morphisms.map((m) => m.name)).toEqual([
      "add-operation",
      "add-multiplication",
      "add-inverses",
    ]);
    expect((full.paths as { objects: { title: string }[] }[])[0]?.objects.map((o) => o.title)).toEqual([
      "Set Theory Fundamentals",
      "Group Theory",
      "Ring Theory",
      "Field Theory",
    ]);
  });

  it("answers found: false when there is no path, and lists all paths with findAll", async () => {
    const { client } = await example("math-docs");
    expect(await call(client, "catdoc_trace", { sourceId: "fields", targetId: "sets" })).toMatchObject({
      found: false,
      length: null,
      paths: [],
    });
    const all = await call(client, "catdoc_trace", { sourceId: "sets", targetId: "modules", findAll: true, maxDepth: 5 });
    expect(all).toMatchObject({ found: true, pathCount: 1 });
  });

  it("traces across categories through functors when the objects are in different categories", async () => {
    const { client } = await example("dev-project");
    const { minimal, standard } = await levels(client, "catdoc_trace", { sourceId: "req-auth-system", targetId: "infra-k8s-user" });
    expect(minimal).toMatchObject({ mode: "across", found: true, sourceCategory: "requirements", targetCategory: "infrastructure" });
    const path = (minimal.paths as { steps: { kind: string; id: string }[]; resultObject: string; arrival: { objectIds: string[] } }[])[0];
    expect(path?.steps.map((s) => s.id)).toEqual(["specify-functor", "design-functor", "implement-functor", "deploy-functor"]);
    expect(path?.resultObject).toBe("infra-k8s-auth");
    expect(path?.arrival.objectIds).toEqual(["infra-k8s-auth", "infra-k8s-user"]);
    expect((standard.paths as { steps: { name: string }[] }[])[0]?.steps[0]?.name).toBe("SpecifyFunctor (要件→仕様)");
    const explicit = await call(client, "catdoc_trace", {
      sourceId: "req-user-management",
      targetId: "spec-user-api",
      targetCategoryId: "specifications",
    });
    // One functor step that lands on the target itself: no arrival path, not even its identity.
    expect(explicit).toMatchObject({ mode: "across", found: true, length: 1 });
    expect((explicit.paths as { steps: { toObject: string }[]; arrival: unknown }[])[0]).toMatchObject({
      steps: [{ kind: "functor", id: "specify-functor", fromObject: "req-user-management", toObject: "spec-user-api" }],
      arrival: null,
    });
  });
});

describe("catdoc_search", () => {
  it("ranks objects by their documents, filters by domain, and adds snippets at full", async () => {
    const { client } = await example("math-docs");
    const { minimal, standard, full } = await levels(client, "catdoc_search", { query: "group axioms", limit: 3 });
    const hits = minimal.hits as { id: string; score: number }[];
    expect(hits[0]?.id).toBe("groups");
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    expect(minimal).toMatchObject({ query: "group axioms", returned: 3, truncated: true });
    expect((standard.hits as unknown[])[0]).toMatchObject({ title: "Group Theory", domain: "mathematics", categoryId: "algebra" });
    expect((full.hits as unknown[])[0]).toMatchObject({ documentPath: "docs/groups.md", snippet: expect.stringContaining("group") });
    expect(await call(client, "catdoc_search", { query: "group", domain: "nothing-here" })).toMatchObject({ total: 0, hits: [] });
  });

  it("searches Japanese documents", async () => {
    const { client } = await example("dev-project");
    const result = await call(client, "catdoc_search", { query: "認証", limit: 5 });
    expect((result.hits as { id: string }[]).map((h) => h.id)).toContain("req-auth-system");
  });
});
