/** The read-only tools on the original's examples: results, levels and paging. */
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { call, levels, useCatDoc, writeProject } from "./helpers.js";
import { validModel } from "../domain/helpers.js";

const { example, tempDir, connect } = useCatDoc();

describe("categories", () => {
  it("lists category ids (minimal), names and counts (standard) and functors (full)", async () => {
    const { client } = await example("dev-project");
    const { minimal, standard, full } = await levels(client, "catdoc_list_categories");
    expect(minimal).toEqual({
      total: 5,
      offset: 0,
      returned: 5,
      truncated: false,
      ids: ["requirements", "specifications", "design", "internal-spec", "infrastructure"],
    });
    expect(standard.categories).toEqual([
      { id: "requirements", name: "Requirements", objectCount: 2, morphismCount: 3 },
      { id: "specifications", name: "Specifications", objectCount: 2, morphismCount: 3 },
      { id: "design", name: "Design", objectCount: 2, morphismCount: 3 },
      { id: "internal-spec", name: "InternalSpec", objectCount: 2, morphismCount: 3 },
      { id: "infrastructure", name: "Infrastructure", objectCount: 3, morphismCount: 6 },
    ]);
    expect((full.categories as unknown[])[1]).toMatchObject({ functorsFrom: ["design-functor"], functorsTo: ["specify-functor"] });
  });

  it("pages with limit and offset and says how to get the rest", async () => {
    const { client } = await example("dev-project");
    const first = await call(client, "catdoc_list_categories", { limit: 2 });
    expect(first).toMatchObject({ total: 5, returned: 2, truncated: true, nextOffset: 2 });
    expect(first.notice).toContain("offset 2");
    const last = await call(client, "catdoc_list_categories", { limit: 2, offset: 4 });
    expect(last).toMatchObject({ total: 5, returned: 1, truncated: false });
    expect(last.ids).toEqual(["infrastructure"]);
  });

  it("shows a category with its objects, morphisms and functors", async () => {
    const { client } = await example("math-docs");
    const { minimal, standard, full } = await levels(client, "catdoc_show_category", { categoryId: "algebra" });
    expect(minimal).toMatchObject({
      id: "algebra",
      objectCount: 5,
      morphismCount: 9,
      identityCount: 5,
      functorsFrom: ["forgetful-alg"],
      truncated: false,
    });
    expect((minimal.objects as unknown[])[0]).toEqual({ id: "sets" });
    expect(standard).toMatchObject({ name: "Algebra" });
    expect((standard.morphisms as unknown[])[0]).toEqual({
      id: "set-to-group",
      source: "sets",
      target: "groups",
      name: "add-operation",
      isIdentity: false,
    });
    expect((full.objects as unknown[])[1]).toMatchObject({ metadata: { level: "intermediate", prerequisites: ["sets"] } });
    const cut = await call(client, "catdoc_show_category", { categoryId: "algebra", limit: 2 });
    expect(cut).toMatchObject({ objectCount: 5, truncated: true });
    expect(cut.objects).toHaveLength(2);
    expect(cut.notice).toContain("catdoc_list_objects");
  });
});

describe("objects", () => {
  it("lists objects filtered by domain or category", async () => {
    const { client } = await example("dev-project");
    const { minimal, standard, full } = await levels(client, "catdoc_list_objects", { domain: "design" });
    expect(minimal).toEqual({ total: 2, offset: 0, returned: 2, truncated: false, ids: ["design-user-service", "design-auth-service"] });
    expect(standard.objects).toEqual([
      { id: "design-user-service", categoryId: "design", title: "ユーザーサービス設計", domain: "design" },
      { id: "design-auth-service", categoryId: "design", title: "認証サービス設計", domain: "design" },
    ]);
    expect((full.objects as unknown[])[0]).toMatchObject({
      documentPath: "docs/design/user-service-design.md",
      metadata: expect.any(Object),
    });
    const infra = await call(client, "catdoc_list_objects", { categoryId: "infrastructure", limit: 1, offset: 1 });
    expect(infra).toMatchObject({ total: 3, returned: 1, truncated: true, nextOffset: 2 });
  });

  it("shows an object with its relations, and its document at full", async () => {
    const { client } = await example("math-docs");
    const { minimal, standard, full } = await levels(client, "catdoc_show_object", { objectId: "groups" });
    expect(minimal).toEqual({ id: "groups", categoryId: "algebra", outgoingCount: 1, incomingCount: 1, identityId: "id-groups" });
    expect(standard).toMatchObject({
      title: "Group Theory",
      outgoing: [{ id: "group-to-ring", source: "groups", target: "rings", name: "add-multiplication" }],
      incoming: [{ id: "set-to-group", source: "sets", target: "groups", name: "add-operation" }],
    });
    expect(full).toMatchObject({ document: { origin: "frontmatter-id", path: "docs/groups.md" }, contentTruncated: false });
    expect(full.content).toMatch(/^---\nid: groups\n[\s\S]*# Group Theory/);
    const modules = await call(client, "catdoc_show_object", { objectId: "modules", response_level: "full" });
    expect(modules).toMatchObject({ document: null, content: null });
  });
});

describe("morphisms", () => {
  it("lists morphisms by category and object, with or without identities", async () => {
    const { client } = await example("math-docs");
    const { minimal, standard, full } = await levels(client, "catdoc_list_morphisms", { categoryId: "algebra", includeIdentities: false });
    expect(minimal.ids).toEqual(["set-to-group", "group-to-ring", "ring-to-field", "ring-to-module"]);
    expect(minimal).not.toHaveProperty("morphisms");
    expect(standard.morphisms).toEqual([
      { id: "set-to-group", source: "sets", target: "groups", categoryId: "algebra", name: "add-operation", isIdentity: false },
      { id: "group-to-ring", source: "groups", target: "rings", categoryId: "algebra", name: "add-multiplication", isIdentity: false },
      { id: "ring-to-field", source: "rings", target: "fields", categoryId: "algebra", name: "add-inverses", isIdentity: false },
      { id: "ring-to-module", source: "rings", target: "modules", categoryId: "algebra", name: "scalar-action", isIdentity: false },
    ]);
    expect((full.morphisms as unknown[])[0]).toMatchObject({ metadata: { description: "Adding a group operation to a set" } });
    const touching = await call(client, "catdoc_list_morphisms", { objectId: "rings" });
    expect(touching.ids).toEqual(["group-to-ring", "ring-to-field", "ring-to-module", "id-rings"]);
  });

  it("shows a morphism with its functor images", async () => {
    const { client } = await example("math-docs");
    const { minimal, standard, full } = await levels(client, "catdoc_show_morphism", { morphismId: "group-to-ring" });
    expect(minimal).toEqual({
      id: "group-to-ring",
      categoryId: "algebra",
      source: "groups",
      target: "rings",
      isIdentity: false,
      functorCount: 1,
    });
    // The images come from standard (issue 16: minimal ≤ 25 % of full once functors are many).
    expect(standard).toMatchObject({
      functorImages: [{ functorId: "forgetful-alg", image: "id-sets" }],
      name: "add-multiplication",
      sourceTitle: "Group Theory",
      targetTitle: "Ring Theory",
    });
    expect(full).toMatchObject({ metadata: { description: "Adding multiplication to form a ring" } });
  });
});

describe("functors and natural transformations", () => {
  it("lists and shows functors", async () => {
    const { client } = await example("dev-project");
    const { minimal, standard, full } = await levels(client, "catdoc_list_functors");
    expect(minimal).toEqual({
      total: 4,
      offset: 0,
      returned: 4,
      truncated: false,
      ids: ["specify-functor", "design-functor", "implement-functor", "deploy-functor"],
    });
    expect((standard.functors as unknown[])[0]).toEqual({
      id: "specify-functor",
      name: "SpecifyFunctor (要件→仕様)",
      sourceCategory: "requirements",
      targetCategory: "specifications",
      mappedObjects: 2,
      mappedMorphisms: 3,
    });
    expect((full.functors as unknown[])[0]).toMatchObject({ sourceCategoryName: "Requirements", targetCategoryName: "Specifications" });
    const shown = await levels(client, "catdoc_show_functor", { functorId: "deploy-functor" });
    expect(shown.minimal).toEqual({
      id: "deploy-functor",
      sourceCategory: "internal-spec",
      targetCategory: "infrastructure",
      mappedObjects: 2,
      mappedMorphisms: 3,
      naturalTransformations: [],
    });
    expect(shown.full).toMatchObject({
      objectMapping: { "internal-user-repository": "infra-k8s-user", "internal-jwt-handler": "infra-k8s-auth" },
      truncated: false,
    });
    const cut = await call(client, "catdoc_show_functor", { functorId: "deploy-functor", limit: 1, response_level: "full" });
    expect(cut).toMatchObject({ objectMapping: { "internal-user-repository": "infra-k8s-user" }, truncated: true });
    expect(Object.keys(cut.objectMapping as object)).toHaveLength(1);
  });

  it("lists and shows natural transformations", async () => {
    const root = await writeProject(await tempDir(), stringify(validModel()));
    const client = await connect(root);
    const { minimal, standard, full } = await levels(client, "catdoc_list_natural_transformations");
    expect(minimal).toEqual({ total: 1, offset: 0, returned: 1, truncated: false, ids: ["eta"] });
    expect(standard.naturalTransformations).toEqual([{ id: "eta", name: "η", sourceFunctor: "F", targetFunctor: "G", componentCount: 3 }]);
    expect(full.naturalTransformations).toEqual([expect.objectContaining({ sourceCategory: "C", targetCategory: "D" })]);
    const shown = await levels(client, "catdoc_show_natural_transformation", { id: "eta" });
    expect(shown.minimal).toEqual({ id: "eta", sourceFunctor: "F", targetFunctor: "G", componentCount: 3 });
    expect(shown.full.components).toEqual([
      { objectId: "a", morphismId: "id-x", source: "x", target: "x" },
      { objectId: "b", morphismId: "id-y", source: "y", target: "y" },
      { objectId: "c", morphismId: "id-z", source: "z", target: "z" },
    ]);
  });
});

describe("graph", () => {
  it("returns nodes and edges of a category, identities left out unless asked for", async () => {
    const { client } = await example("math-docs");
    const { minimal, standard, full } = await levels(client, "catdoc_get_graph", { categoryId: "topology" });
    expect(minimal).toEqual({
      total: 3,
      offset: 0,
      returned: 3,
      truncated: false,
      edgeCount: 2,
      edgesReturned: 2,
      edgesTruncated: false,
      nodeIds: ["topological-spaces", "metric-spaces", "manifolds"],
    });
    expect((standard.nodes as { id: string; categoryId: string }[]).map((n) => [n.id, n.categoryId])).toEqual([
      ["topological-spaces", "topology"],
      ["metric-spaces", "topology"],
      ["manifolds", "topology"],
    ]);
    expect(standard.edges).toHaveLength(2);
    expect((standard.edges as unknown[])[0]).toMatchObject({ categoryId: "topology", isIdentity: false, name: expect.any(String) });
    expect(standard).toMatchObject({ categories: [{ id: "topology", name: "Topology" }], functors: [] });
    expect((full.nodes as unknown[])[0]).toHaveProperty("metadata");
    const withIdentities = await call(client, "catdoc_get_graph", { categoryId: "topology", includeIdentities: true });
    expect(withIdentities.edgeCount).toBe(5);
    const page = await call(client, "catdoc_get_graph", { limit: 2, edgeLimit: 1, response_level: "full" });
    expect(page).toMatchObject({ total: 8, returned: 2, truncated: true, edgesReturned: 1, edgesTruncated: false });
    expect(page.functors).toEqual([
      {
        id: "forgetful-alg",
        name: "Forgetful Functor (Algebra)",
        sourceCategory: "algebra",
        targetCategory: "algebra",
        objectMapping: { sets: "sets", groups: "sets" },
      },
    ]);
  });
});
