/**
 * minimal is what a model needs to decide its next step: on realistic projects, every tool's
 * minimal answer costs at most 25 % of its full one (o200k tokens), unless it is 120 tokens or less.
 * catdoc_show_morphism's minimal counts the functors out of its category (their images from
 * standard), catdoc_trace's minimal holds the ids of the shortest path only (with findAll, the
 * other paths' lengths), catdoc_import_document's minimal is its counts (the lists from standard).
 */
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

  it("with many functors and paths: catdoc_show_morphism, catdoc_trace findAll, catdoc_import_document (dry run)", async () => {
    const root = await tempDir();
    // cat-0 has F0 and one twin per natural transformation: 7 functors out of it.
    await writeGeneratedProject(root, { objects: 300, morphisms: 900, functors: 3, naturalTransformations: 6 });
    await writeFile(
      join(root, "imported.md"),
      "---\nid: imported-note\ntitle: Imported note\n---\n# Imported note\n\nSee @c0-o1 and @c0-o2.\n",
    );
    const client = await connect(root);
    const morphism = (
      (await call(client, "catdoc_list_morphisms", { categoryId: "cat-0", includeIdentities: false, limit: 1 })).ids as string[]
    )[0];
    const functors = (await call(client, "catdoc_show_morphism", { morphismId: morphism, response_level: "standard" }))
      .functorImages as unknown[];
    expect(functors.length).toBeGreaterThanOrEqual(5);
    const figures = await shares(client, [
      ["catdoc_show_morphism", { morphismId: morphism }],
      ["catdoc_trace", { sourceId: "c0-o1", targetId: "c0-o20", findAll: true, maxPaths: 100 }],
      ["catdoc_import_document", { filePath: "imported.md", categoryId: "cat-0", dryRun: true }],
    ]);
    expect(figures).toHaveLength(3);
    // Many paths (the share would grow with them if each path's ids were in minimal): the shortest
    // path's ids, the others' lengths.
    const trace = await call(client, "catdoc_trace", {
      sourceId: "c0-o1",
      targetId: "c0-o20",
      findAll: true,
      maxPaths: 100,
      response_level: "minimal",
    });
    const paths = trace.paths as { length: number; objectIds?: string[] }[];
    expect(trace.pathCount).toBeGreaterThanOrEqual(5);
    expect(paths[0]?.objectIds?.length).toBe((paths[0]?.length ?? 0) + 1);
    expect(paths.slice(1).every((p) => Object.keys(p).join() === "length")).toBe(true);
  });
});
