/**
 * The original CatDoc's MCP inputs (issue 17 item 7), through the real SDK client: `projectName`
 * of catdoc_init names the project, `format: "summary"` of catdoc_list_categories answers as
 * `json` does (the original answered both alike) without being listed, and `crossCategory` of
 * catdoc_trace is INVALID_INPUT naming targetCategoryId — no alias adds text to tools/list.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, callError, useCatDoc } from "./helpers.js";

const { tempDir, connect, example } = useCatDoc();

describe("the original CatDoc's MCP inputs", () => {
  it("catdoc_init takes projectName, written to config.yaml and answered at standard", async () => {
    const root = await tempDir();
    const client = await connect(root);
    const result = await call(client, "catdoc_init", { projectName: "Quill notes", response_level: "standard" });
    expect(result).toMatchObject({ initialized: true, projectName: "Quill notes" });
    expect(await readFile(join(root, ".catdoc", "config.yaml"), "utf8")).toContain("name: Quill notes");
    // Without it, the folder's name, as before.
    const other = await tempDir();
    const named = await call(await connect(other), "catdoc_init", { response_level: "standard" });
    expect(named.projectName).toBe(other.split("/").pop());
    const empty = await callError(client, "catdoc_init", { projectName: "", force: true });
    expect(empty).toMatchObject({ code: "INVALID_INPUT", details: { fields: [{ field: "projectName" }] } });
  });

  it('catdoc_list_categories answers format "summary" as "json" and as no format', async () => {
    const { client } = await example("math-docs");
    for (const level of ["minimal", "standard", "full"]) {
      const plain = await call(client, "catdoc_list_categories", { response_level: level });
      expect(await call(client, "catdoc_list_categories", { format: "summary", response_level: level })).toEqual(plain);
      expect(await call(client, "catdoc_list_categories", { format: "json", response_level: level })).toEqual(plain);
    }
    expect(await callError(client, "catdoc_list_categories", { format: "xml" })).toMatchObject({ code: "INVALID_INPUT" });
  });

  it("catdoc_trace refuses crossCategory with INVALID_INPUT naming targetCategoryId, and traces with it", async () => {
    const { client } = await example("dev-project");
    const error = await callError(client, "catdoc_trace", {
      sourceId: "req-user-management",
      targetId: "specifications",
      crossCategory: true,
    });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("crossCategory");
    expect(error.message).toContain("targetCategoryId");
    expect(error.details).toMatchObject({ fields: [{ field: "crossCategory" }] });
    // What the message says to send.
    const traced = await call(client, "catdoc_trace", {
      sourceId: "req-user-management",
      targetId: "spec-user-api",
      targetCategoryId: "specifications",
    });
    expect(traced).toMatchObject({ mode: "across", found: true });
    // A key the original never had keeps the plain refusal.
    const bogus = await callError(client, "catdoc_trace", { sourceId: "req-user-management", targetId: "spec-user-api", bogus: 1 });
    expect(bogus.message).toMatch(/bogus: Unrecognized key/);
    expect(bogus.message).not.toContain("targetCategoryId");
  });

  it("tools/list shows none of the original's aliases", async () => {
    const { client } = await example("math-docs");
    const { tools } = await client.listTools();
    const properties = (name: string) =>
      (tools.find((tool) => tool.name === name)?.inputSchema as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(properties("catdoc_trace"))).not.toContain("crossCategory");
    expect(properties("catdoc_list_categories")["format"]).toEqual({ type: "string", enum: ["json"] });
    expect(properties("catdoc_init")["projectName"]).toMatchObject({ type: "string" });
    expect(JSON.stringify(tools.map((tool) => tool.inputSchema))).not.toMatch(/"summary"|crossCategory/);
  });
});
