/**
 * minimal is what a model needs to decide its next step: on realistic projects, every tool's
 * minimal answer costs at most 25 % of its full one (o200k tokens), unless it is 120 tokens or less.
 * Not yet held: catdoc_show_morphism once five or more functors leave its category (each image
 * is in minimal) and catdoc_trace with findAll over many paths (each path's ids are in minimal);
 * read-tools.test.ts and trace-search.test.ts pin those minimal answers.
 */
import { cp } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { assertMinimalShare, type MinimalShare } from "@local-mcp/core/testing";
import { writeGeneratedProject } from "../../src/testing/generate-project.js";
import { call, useCatDoc } from "./helpers.js";

const { tempDir, connect } = useCatDoc();
const QUILL = fileURLToPath(new URL("../../../../examples/catdoc/", import.meta.url));

async function shares(client: Awaited<ReturnType<typeof connect>>, cases: [string, Record<string, unknown>][]): Promise<MinimalShare[]> {
  const out: MinimalShare[] = [];
  for (const [tool, args] of cases) {
    const minimal = await call(client, tool, { ...args, response_level: "minimal" });
    const full = await call(client, tool, { ...args, response_level: "full" });
    out.push(await assertMinimalShare(`${tool} ${JSON.stringify(args)}`, { minimal, full }));
  }
  return out;
}

describe("minimal ≤ 25 % of full (once minimal is over 120 tokens)", () => {
  it("on the Quill example project", async () => {
    const root = await tempDir();
    await cp(QUILL, root, { recursive: true });
    const client = await connect(root);
    const figures = await shares(client, [
      ["catdoc_show_category", { categoryId: "implementation" }],
      ["catdoc_show_morphism", { morphismId: "ref--design-sync--design-note-model" }],
      ["catdoc_trace", { sourceId: "req-sync", targetId: "impl-app" }],
      ["catdoc_list_natural_transformations", {}],
      ["catdoc_show_natural_transformation", { id: "bundle" }],
    ]);
    expect(figures).toHaveLength(5);
  });

  it("on a generated project of 300 objects, 3 functors and 4 natural transformations", async () => {
    const root = await tempDir();
    await writeGeneratedProject(root, { objects: 300, morphisms: 900, functors: 3, naturalTransformations: 4 });
    const client = await connect(root);
    const categories = (await call(client, "catdoc_list_categories", {})).ids as string[];
    const objects = (await call(client, "catdoc_list_objects", { categoryId: categories[0], limit: 100 })).ids as string[];
    const figures = await shares(client, [
      ["catdoc_show_category", { categoryId: categories[0] }],
      ["catdoc_trace", { sourceId: objects[0], targetId: objects[50], findAll: true, maxDepth: 4 }],
      ["catdoc_trace", { sourceId: objects[0], targetId: objects[60] }],
      ["catdoc_list_natural_transformations", {}],
    ]);
    expect(figures).toHaveLength(4);
  });
});
