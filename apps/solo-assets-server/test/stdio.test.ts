/**
 * The real bin over stdio (dist/mcp.js): tools and their contract, save → search → get with
 * progress notifications, a clean stdout, the process listed while it runs — and saved code
 * that looks for API keys in its environment finds none, though this server has them.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempLibrary, testEnv } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const SECRET = "AIzaSyD-this-is-not-a-real-key-0123456789";

let library: TempLibrary;
let server: SpawnedStdioServer;

beforeAll(async () => {
  library = tempLibrary();
  server = await spawnStdioServer({
    command: process.execPath,
    args: [MCP],
    env: testEnv(library.dbPath, { GOOGLE_API_KEY: SECRET, GITHUB_TOKEN: "ghp_not_real", SOLO_EMBEDDER: "local", SOLO_CRITIC: "off" }),
    readyTimeoutMs: 30_000,
  });
});

afterAll(async () => {
  library?.remove();
});

const ENV_PROBE = `import os


def visible_secrets() -> list[str]:
    """Names of environment variables that look like credentials."""
    words = ("KEY", "TOKEN", "SECRET", "PASSWORD")
    return sorted(k for k in os.environ if any(w in k.upper() for w in words))
`;

describe("solo-assets-mcp over stdio", () => {
  it("lists seven tools with output schemas and explicit annotations", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "search_functions",
      "get_function",
      "save_function",
      "list_functions",
      "get_function_history",
      "delete_function",
      "export_function",
    ]);
    for (const tool of tools) {
      expect(tool.outputSchema).toBeDefined();
      expect(Object.keys(tool.annotations ?? {})).toEqual(
        expect.arrayContaining(["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]),
      );
    }
    const save = tools.find((t) => t.name === "save_function");
    expect(save?.description).toMatch(/NOT a way to run/);
    expect(save?.description).toMatch(/Search with search_functions before writing new code/);
  });

  it("saves with progress notifications; the saved code's tests see no API key or token", async () => {
    const progress: string[] = [];
    const result = await server.client.callTool(
      {
        name: "save_function",
        arguments: {
          name: "visible_secrets",
          code: ENV_PROBE,
          description: "List environment variables that look like credentials",
          test_cases: [{ input: {}, expected: [] }, "assert os.environ.get('GOOGLE_API_KEY') is None"],
        },
      },
      { timeout: 120_000, onprogress: (p) => progress.push(p.message ?? "") },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ name: "visible_secrets", version: 1, status: "active", critic: "off" });
    expect(progress).toEqual(expect.arrayContaining(["lint: ruff E,F,W,I", "tests", "storing"]));
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("finds the function by meaning and returns its code", async () => {
    const search = await server.client.callTool({
      name: "search_functions",
      arguments: { query: "which credentials are in the environment" },
    });
    const results = (search.structuredContent as { results: { name: string; signature: string }[] }).results;
    expect(results[0]).toMatchObject({ name: "visible_secrets", signature: "def visible_secrets() -> list[str]" });
    const got = await server.client.callTool({ name: "get_function", arguments: { name: "visible_secrets" } });
    expect((got.structuredContent as { code: string }).code).toBe(ENV_PROBE);
  });

  it("is listed as a process using the library while it runs, and only then", async () => {
    const record = join(`${library.dbPath.replace(/\.duckdb$/, "")}.processes`, `${server.child.pid}.json`);
    expect(existsSync(record)).toBe(true);
    server.assertCleanStdout();
    const exit = await server.close();
    expect(exit.code).toBe(0);
    expect(existsSync(record)).toBe(false);
  });
});
