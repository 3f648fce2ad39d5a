/**
 * The built bin: `dist/mcp.js` spawned over stdio (stdout carries JSON-RPC only) and driven by
 * the official MCP Inspector CLI. Build first: `pnpm --filter @local-mcp/catdoc-server... build`.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runInspectorCli, spawnStdioServer } from "@local-mcp/core/testing";
import { describe, expect, it } from "vitest";
import { copyExample, useTempDirs } from "./helpers.js";

const BIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const APP = fileURLToPath(new URL("../../package.json", import.meta.url));
const tempDir = useTempDirs();

describe("catdoc-mcp over stdio", () => {
  it("serves the 22 tools from the project in CATDOC_PROJECT_PATH, with nothing but JSON-RPC on stdout", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const server = await spawnStdioServer({
      command: process.execPath,
      args: [BIN],
      env: { CATDOC_PROJECT_PATH: root, LOCAL_MCP_LOG_LEVEL: "debug" },
    });
    try {
      expect(server.stderr()).toMatch(/catdoc-mcp 0\.1\.0 ready on stdio \(22 tools\)/);
      expect((await server.client.listTools()).tools).toHaveLength(22);
      const result = await server.client.callTool({ name: "catdoc_validate", arguments: { response_level: "standard" } });
      expect(result.structuredContent).toMatchObject({ isValid: true, summary: { totalWarnings: 3 } });
      const resource = await server.client.readResource({ uri: "catdoc://objects/rings" });
      expect(resource.contents[0]).toMatchObject({ text: await readFile(join(root, "docs", "rings.md"), "utf8") });
      const failed = await server.client.callTool({ name: "catdoc_show_category", arguments: { categoryId: "x" } });
      expect(failed).toMatchObject({
        isError: true,
        structuredContent: { error: { code: "NOT_FOUND", message: "Category 'x' not found" } },
      });
    } finally {
      const exit = await server.close();
      server.assertCleanStdout();
      expect(exit.code).toBe(0);
    }
  });
});

describe("the MCP Inspector CLI against catdoc-mcp", () => {
  it("lists the tools and calls one", async () => {
    const root = await copyExample(await tempDir(), "dev-project");
    const common = { server: [process.execPath, BIN], env: { CATDOC_PROJECT_PATH: root, LOCAL_MCP_LOG_LEVEL: "warn" }, resolveFrom: APP };
    const listed = (await runInspectorCli({ ...common, method: "tools/list" })) as {
      tools: { name: string; outputSchema?: unknown; annotations?: { readOnlyHint?: boolean } }[];
    };
    expect(listed.tools).toHaveLength(22);
    expect(listed.tools.every((t) => t.outputSchema !== undefined)).toBe(true);
    expect(listed.tools.find((t) => t.name === "catdoc_trace")?.annotations?.readOnlyHint).toBe(true);
    const called = (await runInspectorCli({
      ...common,
      method: "tools/call",
      toolName: "catdoc_trace",
      toolArgs: { sourceId: "req-auth-system", targetId: "req-user-management" },
    })) as { structuredContent: unknown };
    expect(called.structuredContent).toMatchObject({
      mode: "within",
      found: true,
      length: 1,
      paths: [{ morphismIds: ["req-auth-depends-user"] }],
    });
  }, 60_000);
});
