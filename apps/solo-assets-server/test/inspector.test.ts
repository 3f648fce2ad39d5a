/**
 * The official MCP Inspector CLI (an independent client) against the built bin: save, search
 * and fetch a function, each call a fresh server process on the same library file.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runInspectorCli } from "@local-mcp/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { SHARED_ENVS_DIR, tempLibrary } from "./helpers/test-library.js";

const library = tempLibrary();
/**
 * The Inspector pipes the server's stderr away; a shell wrapper keeps it in a log so a failure
 * shows why the server went away.
 */
const SERVER_LOG = join(library.dir, "server-stderr.log");
const SERVER = [
  "/bin/sh",
  "-c",
  `exec "$0" "$1" 2>>"$2"`,
  process.execPath,
  fileURLToPath(new URL("../dist/mcp.js", import.meta.url)),
  SERVER_LOG,
];
afterAll(() => library.remove());

const env = {
  SOLO_DB_PATH: library.dbPath,
  SOLO_ENVS_DIR: SHARED_ENVS_DIR,
  SOLO_EMBEDDER: "local",
  SOLO_CRITIC: "off",
  LOCAL_MCP_LOG_LEVEL: "warn",
};

async function inspect(method: "tools/list" | "tools/call", toolName?: string, toolArgs?: Record<string, string>): Promise<unknown> {
  try {
    return await runInspectorCli({
      server: SERVER,
      method,
      env,
      resolveFrom: import.meta.url,
      timeoutMs: 90_000,
      ...(toolName ? { toolName } : {}),
      ...(toolArgs ? { toolArgs } : {}),
    });
  } catch (error) {
    const log = existsSync(SERVER_LOG) ? readFileSync(SERVER_LOG, "utf8") : "(no server stderr)";
    throw new Error(`${(error as Error).message}\n--- server stderr ---\n${log.slice(-4000)}`);
  }
}

describe("the MCP Inspector CLI against solo-assets-mcp", () => {
  it("lists the tools", async () => {
    const result = (await inspect("tools/list")) as { tools: { name: string }[] };
    expect(result.tools.map((t) => t.name).sort()).toEqual([
      "delete_function",
      "export_function",
      "get_function",
      "get_function_history",
      "list_functions",
      "save_function",
      "search_functions",
    ]);
  });

  it("saves, searches and fetches a function", async () => {
    const code =
      'def celsius_to_kelvin(celsius: float) -> float:\n    """Convert degrees Celsius to kelvin."""\n    return celsius + 273.15\n';
    const saved = (await inspect("tools/call", "save_function", {
      name: "celsius_to_kelvin",
      code,
      description: "Convert a temperature from Celsius to Kelvin",
      test_cases: JSON.stringify([{ input: { celsius: 0 }, expected: 273.15 }]),
    })) as { structuredContent: { status: string; version: number } };
    expect(saved.structuredContent).toMatchObject({ status: "active", version: 1 });

    const found = (await inspect("tools/call", "search_functions", { query: "temperature in kelvin from centigrade" })) as {
      structuredContent: { results: { name: string }[] };
    };
    expect(found.structuredContent.results[0]?.name).toBe("celsius_to_kelvin");

    const fetched = (await inspect("tools/call", "get_function", { name: "celsius_to_kelvin" })) as { structuredContent: { code: string } };
    expect(fetched.structuredContent.code).toBe(code);
  });
});
