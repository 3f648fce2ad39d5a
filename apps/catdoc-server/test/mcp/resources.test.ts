/** Resources: documents, categories and the graph — listed, completed, and the same bytes until their source changes. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stableStringify } from "@local-mcp/core";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { CatDocStore } from "../../src/domain/index.js";
import { useCatDoc } from "./helpers.js";

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
      ...["sets", "groups", "rings", "fields", "modules", "topological-spaces", "metric-spaces", "manifolds"].map((id) => `catdoc://objects/${id}`),
      "catdoc://categories/algebra",
      "catdoc://categories/topology",
    ]);
    expect(resources.find((r) => r.uri === "catdoc://objects/groups")).toMatchObject({ name: "groups", title: "Group Theory", mimeType: "text/markdown" });
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
    expect((await read(client, "catdoc://objects/modules")).text).toBe("# Module Theory\n\n_No document is linked to object 'modules' (category 'algebra', domain 'mathematics')._\n");
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
    const objects = await client.complete({ ref: { type: "ref/resource", uri: "catdoc://objects/{id}" }, argument: { name: "id", value: "m" } });
    expect(objects.completion.values).toEqual(["manifolds", "metric-spaces", "modules"]);
    const categories = await client.complete({ ref: { type: "ref/resource", uri: "catdoc://categories/{id}" }, argument: { name: "id", value: "AL" } });
    expect(categories.completion.values).toEqual(["algebra"]);
  });

  it("answers unknown ids and a missing project with resource-not-found", async () => {
    const { client } = await example("math-docs");
    await expect(client.readResource({ uri: "catdoc://objects/nope" })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("Object 'nope' not found") });
    await expect(client.readResource({ uri: "catdoc://categories/nope" })).rejects.toBeInstanceOf(McpError);
    const bare = await connect(await tempDir());
    expect((await bare.listResources()).resources.map((r) => r.uri)).toEqual(["catdoc://graph"]);
    await expect(bare.readResource({ uri: "catdoc://graph" })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("CatDoc project not initialized") });
    const none = await bare.complete({ ref: { type: "ref/resource", uri: "catdoc://objects/{id}" }, argument: { name: "id", value: "" } });
    expect(none.completion.values).toEqual([]);
  });
});
