/**
 * Start fast (issue #14): after initialize and tools/list, the built catdoc-mcp has loaded none of
 * the heavy libraries — not the never-bundled ones the issue names (typescript, node-llama-cpp,
 * @duckdb/node-api, @google/genai), nor CatDoc's own yaml, MiniSearch, commander, the validators,
 * the importer or the dashboard, which load when a tool first needs them. What a process loaded is
 * recorded by core's module-load observer (`node --import LOAD_OBSERVER_URL`); a bundle chunk counts
 * as every source esbuild put in it (the app's bundle-inputs.json, read by core's loadedModules).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOAD_LOG_ENV, LOAD_OBSERVER_URL, loadedModules, readLoadLog, spawnStdioServer } from "@local-mcp/core/testing";
import { describe, expect, it } from "vitest";
import { copyExample, useTempDirs } from "./helpers.js";

const BIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const tempDir = useTempDirs();

/** Never loaded by initialize + tools/list (issue #14). */
const NEVER_AT_START = ["typescript", "node-llama-cpp", "@duckdb/node-api", "@google/genai"];
/** CatDoc's own heavy parts, loaded on first use. */
const CATDOC_LAZY = ["yaml", "minisearch", "commander", "cytoscape"];
const CATDOC_LAZY_SOURCES = ["src/domain/validate/validate.ts", "src/domain/import/", "src/dashboard/", "src/domain/store/", "src/cli/"];

async function loadsDuring(drive: (client: Awaited<ReturnType<typeof spawnStdioServer>>["client"]) => Promise<void>) {
  const dir = await tempDir();
  const root = await copyExample(dir, "math-docs");
  const record = join(dir, "loaded.txt");
  const server = await spawnStdioServer({
    command: process.execPath,
    args: ["--import", LOAD_OBSERVER_URL, BIN],
    env: { CATDOC_PROJECT_PATH: root, LOCAL_MCP_LOG_LEVEL: "warn", [LOAD_LOG_ENV]: record },
  });
  try {
    await drive(server.client);
  } finally {
    expect((await server.close()).code).toBe(0);
  }
  return loadedModules(readLoadLog(record));
}

describe("catdoc-mcp start-up", () => {
  it("loads no heavy library for initialize and tools/list", async () => {
    const { packages, sources } = await loadsDuring(async (client) => {
      expect((await client.listTools()).tools).toHaveLength(22);
    });
    expect(packages).toContain("@modelcontextprotocol/server"); // the recorder sees what was loaded
    expect([...packages].filter((name) => NEVER_AT_START.includes(name) || CATDOC_LAZY.includes(name))).toEqual([]);
    expect([...sources].filter((source) => CATDOC_LAZY_SOURCES.some((lazy) => source.startsWith(lazy)))).toEqual([]);
  });

  it("loads yaml with the first tool call and the validators with the first validation, not MiniSearch or the importer", async () => {
    const { packages, sources } = await loadsDuring(async (client) => {
      const result = await client.callTool({ name: "catdoc_validate", arguments: {} });
      expect(result.structuredContent).toMatchObject({ isValid: true });
    });
    expect(packages).toContain("yaml");
    expect(sources).toContain("src/domain/validate/validate.ts");
    expect(packages).not.toContain("minisearch");
    expect([...sources].filter((source) => source.startsWith("src/domain/import/") || source.startsWith("src/dashboard/"))).toEqual([]);
  });
});
