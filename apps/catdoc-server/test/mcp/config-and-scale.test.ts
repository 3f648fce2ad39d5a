/** Configuration from the environment, the server's default level, and bounded answers on a large project. */
import { ConfigError } from "@local-mcp/core";
import { describe, expect, it } from "vitest";
import { loadCatDocConfig } from "../../src/config.js";
import { writeGeneratedProject } from "../../src/testing/generate-project.js";
import { call, useCatDoc } from "./helpers.js";

const { example, tempDir, connect } = useCatDoc();

describe("loadCatDocConfig", () => {
  it("reads CATDOC_PROJECT_PATH against the working directory, and the shared LOCAL_MCP_ settings", () => {
    expect(loadCatDocConfig({}, "/work/here")).toEqual({
      projectPath: "/work/here",
      responseLevel: "minimal",
      logLevel: "info",
      resourcePollMs: 2_000,
    });
    expect(loadCatDocConfig({ CATDOC_PROJECT_PATH: "docs/project", LOCAL_MCP_RESPONSE_LEVEL: "full" }, "/work/here")).toMatchObject({
      projectPath: "/work/here/docs/project",
      responseLevel: "full",
    });
    expect(loadCatDocConfig({ CATDOC_PROJECT_PATH: "/abs/p", CATDOC_PROJECT: "ignored" }, "/x").projectPath).toBe("/abs/p");
    expect(loadCatDocConfig({ CATDOC_PROJECT_PATH: "" }, "/x").projectPath).toBe("/x");
    expect(() => loadCatDocConfig({ LOCAL_MCP_RESPONSE_LEVEL: "loud" }, "/x")).toThrow(ConfigError);
    expect(() => loadCatDocConfig({ LOCAL_MCP_RESPONSE_LEVEL: "loud" }, "/x")).toThrow(/LOCAL_MCP_RESPONSE_LEVEL/);
  });

  it("answers at the server's default level unless the call asks for another", async () => {
    const { root } = await example("math-docs");
    const client = await connect(root, { LOCAL_MCP_RESPONSE_LEVEL: "standard" });
    const standard = await call(client, "catdoc_show_category", { categoryId: "topology" });
    expect(standard.name).toBe("Topology");
    const minimal = await call(client, "catdoc_show_category", { categoryId: "topology", response_level: "minimal" });
    expect(minimal.name).toBeUndefined();
  });
});

describe("a large project", () => {
  it("keeps every answer bounded while counting everything", async () => {
    const root = await tempDir();
    await writeGeneratedProject(root, { objects: 600, morphisms: 3000, functors: 2, seed: 3 });
    const client = await connect(root);
    const validation = await call(client, "catdoc_validate", { response_level: "full" });
    const summary = validation.summary as { totalWarnings: number };
    expect(summary.totalWarnings).toBeGreaterThan(1000);
    expect(validation.warnings).toHaveLength(50);
    expect(validation).toMatchObject({ truncated: true, nextOffset: 50 });
    expect(JSON.stringify(validation).length).toBeLessThan(30_000);

    const objects = await call(client, "catdoc_list_objects", { limit: 1000, response_level: "standard" });
    expect(objects).toMatchObject({ total: 600, returned: 600, truncated: false });
    const graph = await call(client, "catdoc_get_graph");
    // The default page: up to 200 nodes, fewer when its full answer would pass the budget (graph-page.test.ts).
    expect(graph).toMatchObject({ total: 600, truncated: true, nextOffset: graph.returned });
    expect(graph.returned as number).toBeLessThanOrEqual(200);
    expect(graph.edgesReturned as number).toBeLessThanOrEqual(1000);
    const categories = await call(client, "catdoc_list_categories");
    const id = (categories.ids as string[])[0] ?? "";
    const shown = await call(client, "catdoc_show_category", { categoryId: id });
    expect(shown).toMatchObject({ objectCount: 300, truncated: true });
    expect(shown.objects).toHaveLength(100);
  }, 30_000);

  it("keeps the minimal level of the list, graph and validate tools to a quarter of full or less", async () => {
    // Lists of a few items or more: for a one-item list the page fields (total, offset, returned,
    // truncated: ~55 characters) are most of any level, and a quarter is out of reach.
    const root = await tempDir();
    await writeGeneratedProject(root, { objects: 600, morphisms: 3000, functors: 2, naturalTransformations: 3, seed: 5 });
    const client = await connect(root);
    const cases: [string, Record<string, unknown>][] = [
      ["catdoc_list_categories", {}],
      ["catdoc_list_objects", {}],
      ["catdoc_list_morphisms", {}],
      ["catdoc_list_functors", {}],
      ["catdoc_list_natural_transformations", {}],
      ["catdoc_get_graph", { limit: 100 }],
      ["catdoc_validate", {}],
      ["catdoc_validate_functor", { functorId: "F0" }],
      ["catdoc_validate_natural_transformation", { id: "eta-0" }],
    ];
    for (const [tool, args] of cases) {
      const minimal = JSON.stringify(await call(client, tool, { ...args, response_level: "minimal" })).length;
      const full = JSON.stringify(await call(client, tool, { ...args, response_level: "full" })).length;
      expect(minimal / full, `${tool}: minimal ${minimal} chars, full ${full}`).toBeLessThanOrEqual(0.25);
    }
  }, 30_000);
});
