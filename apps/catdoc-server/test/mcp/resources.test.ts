/** Resources: documents, categories and the graph — listed, completed, and the same bytes until their source changes. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RESOURCE_PART_META, estimateJsonTokens, stableStringify } from "@local-mcp/core";
import { ResourceNotFoundError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { CatDocStore } from "../../src/domain/index.js";
import { writeGeneratedProject } from "../../src/testing/generate-project.js";
import { call, useCatDoc } from "./helpers.js";

const { example, tempDir, connect } = useCatDoc();

interface TextContent {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Record<string, unknown>;
}

async function read(client: Awaited<ReturnType<typeof connect>>, uri: string): Promise<TextContent> {
  const result = await client.readResource({ uri });
  expect(result.contents).toHaveLength(1);
  return result.contents[0] as TextContent;
}

describe("resources", () => {
  it("lists the graph, every document and every category, and the two templates", async () => {
    const { client } = await example("math-docs");
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      "catdoc://graph",
      ...["sets", "groups", "rings", "fields", "modules", "topological-spaces", "metric-spaces", "manifolds"].map(
        (id) => `catdoc://objects/${id}`,
      ),
      "catdoc://categories/algebra",
      "catdoc://categories/topology",
    ]);
    expect(resources.find((r) => r.uri === "catdoc://objects/groups")).toMatchObject({
      name: "groups",
      title: "Group Theory",
      mimeType: "text/markdown",
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType])).toEqual([
      ["catdoc://objects/{id}", "text/markdown"],
      ["catdoc://categories/{id}", "application/json"],
    ]);
  });

  it("reads an object's document: the same bytes twice, new bytes after the file is edited", async () => {
    const { root, client } = await example("math-docs");
    const first = await read(client, "catdoc://objects/groups");
    const second = await read(client, "catdoc://objects/groups");
    expect(first.mimeType).toBe("text/markdown");
    expect(first.text).toBe(await readFile(join(root, "docs", "groups.md"), "utf8"));
    expect(second).toEqual(first);
    expect(first._meta?.["local-mcp/version"]).toMatch(/^sha256:/);
    await writeFile(join(root, "docs", "groups.md"), `${first.text}\nAn added line.\n`);
    const edited = await read(client, "catdoc://objects/groups");
    expect(edited.text).toBe(`${first.text}\nAn added line.\n`);
    expect(edited._meta?.["local-mcp/version"]).not.toBe(first._meta?.["local-mcp/version"]);
    // An object without a document reads as a short page that says so.
    expect((await read(client, "catdoc://objects/modules")).text).toBe(
      "# Module Theory\n\n_No document is linked to object 'modules' (category 'algebra', domain 'mathematics')._\n",
    );
  });

  it("reads a category and the graph as JSON with sorted keys, stable until category.yaml changes", async () => {
    const { root, client } = await example("math-docs");
    const category = await read(client, "catdoc://categories/topology");
    expect(category.mimeType).toBe("application/json");
    const json = JSON.parse(category.text) as { id: string; objects: unknown[]; functorsFrom: string[] };
    expect(json).toMatchObject({ id: "topology", name: "Topology", functorsFrom: [], functorsTo: [] });
    expect(json.objects).toHaveLength(3);
    expect(category.text).toBe(stableStringify(json));
    const graph = await read(client, "catdoc://graph");
    const parsed = JSON.parse(graph.text) as { nodes: unknown[]; edges: { isIdentity: boolean }[]; functors: unknown[] };
    expect(parsed.nodes).toHaveLength(8);
    expect(parsed.edges).toHaveLength(14);
    expect(parsed.edges.filter((e) => e.isIdentity)).toHaveLength(8);
    expect(parsed.functors).toHaveLength(1);

    expect(await read(client, "catdoc://categories/topology")).toEqual(category);
    expect(await read(client, "catdoc://graph")).toEqual(graph);
    // Another writer (here the store, as the CLI would) changes category.yaml: the next read sees it.
    await new CatDocStore(root).addObject("topology", { id: "knots", title: "Knot Theory", domain: "mathematics" });
    const changed = await read(client, "catdoc://categories/topology");
    expect(changed.text).not.toBe(category.text);
    expect((JSON.parse(changed.text) as { objects: unknown[] }).objects).toHaveLength(4);
    expect((await read(client, "catdoc://graph")).text).not.toBe(graph.text);
    expect(await read(client, "catdoc://objects/knots")).toMatchObject({ text: expect.stringContaining("# Knot Theory") });
  });

  it("completes object and category ids", async () => {
    const { client } = await example("math-docs");
    const objects = await client.complete({
      ref: { type: "ref/resource", uri: "catdoc://objects/{id}" },
      argument: { name: "id", value: "m" },
    });
    expect(objects.completion.values).toEqual(["manifolds", "metric-spaces", "modules"]);
    const categories = await client.complete({
      ref: { type: "ref/resource", uri: "catdoc://categories/{id}" },
      argument: { name: "id", value: "AL" },
    });
    expect(categories.completion.values).toEqual(["algebra"]);
  });

  it("answers unknown ids and a missing project with resource-not-found", async () => {
    const { client } = await example("math-docs");
    // Resource-not-found is -32602 on the wire in every era since SDK v2 (-32002 is only accepted
    // from peers); the client turns it into a ResourceNotFoundError.
    await expect(client.readResource({ uri: "catdoc://objects/nope" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Object 'nope' not found"),
    });
    await expect(client.readResource({ uri: "catdoc://categories/nope" })).rejects.toBeInstanceOf(ResourceNotFoundError);
    const bare = await connect(await tempDir());
    expect((await bare.listResources()).resources.map((r) => r.uri)).toEqual(["catdoc://graph"]);
    await expect(bare.readResource({ uri: "catdoc://graph" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("CatDoc project not initialized"),
    });
    const none = await bare.complete({ ref: { type: "ref/resource", uri: "catdoc://objects/{id}" }, argument: { name: "id", value: "" } });
    expect(none.completion.values).toEqual([]);
  });

  it("on a large project: lists a page at a time, refuses the graph and a category above 25,000 tokens naming the tools, and sends a long document in parts", async () => {
    const root = await tempDir();
    await writeGeneratedProject(root, { objects: 600, morphisms: 3000, functors: 2, seed: 3 });
    const lines = Array.from(
      { length: 4_000 },
      (_, i) => `Paragraph ${i}: the handbook goes on about categories, functors and their documents.`,
    );
    const handbook = `---\nid: handbook\ntitle: Handbook\n---\n# Handbook\n\n${lines.join("\n")}\n`;
    await writeFile(join(root, "handbook.md"), handbook);
    const client = await connect(root);
    await call(client, "catdoc_import_document", { filePath: "handbook.md", categoryId: "cat-0" });

    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      // One page per request: the v2 client's listResources() without a cursor walks every page.
      const page = await client.request({ method: "resources/list", params: cursor === undefined ? {} : { cursor } });
      expect(estimateJsonTokens(JSON.stringify(page))).toBeLessThanOrEqual(10_000);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(uris).toHaveLength(1 + 601 + 2);
    expect(new Set(uris).size).toBe(uris.length);

    await expect(client.readResource({ uri: "catdoc://graph" })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/RESOURCE_EXHAUSTED: catdoc:\/\/graph is ~\d+ tokens.*catdoc_get_graph tool \(limit and offset/),
    });
    await expect(client.readResource({ uri: "catdoc://categories/cat-1" })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("catdoc_show_category with categoryId 'cat-1'"),
    });

    const first = await read(client, "catdoc://objects/handbook");
    const part = first._meta?.[RESOURCE_PART_META] as { part: number; parts: number; next: string };
    expect(part).toMatchObject({ part: 1, next: "catdoc://objects/handbook?part=2" });
    expect(part.parts).toBeGreaterThan(1);
    expect(first.text).toMatch(/^\[local-mcp: catdoc:\/\/objects\/handbook is ~[\d,]+ tokens/);
    const last = await read(client, `catdoc://objects/handbook?part=${part.parts}`);
    expect(last.text).toContain("This is the last part.");
    expect(last.text.endsWith(`Paragraph 3999: the handbook goes on about categories, functors and their documents.\n`)).toBe(true);
    expect(await read(client, `catdoc://objects/handbook?part=${part.parts}`)).toEqual(last);
  });
});
