/**
 * Many processes share one library (each Claude Code session spawns its own stdio server): three
 * real solo-assets-mcp processes save and search at the same time on one DuckDB file. Every save
 * must be present afterwards and no caller may see an error.
 */
import { fileURLToPath } from "node:url";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { tempLibrary, testEnv } from "./helpers/test-library.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const PROCESSES = 3;
const SAVES_EACH = 3;

const library = tempLibrary();
const servers: SpawnedStdioServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  library.remove();
});

function functionCode(name: string, k: number): string {
  return `def ${name}(x: int) -> int:\n    """Add ${k} to x."""\n    return x + ${k}\n`;
}

describe("three processes on one library", () => {
  it("save and search at once: every save is present, no error reaches a caller", async () => {
    for (let p = 0; p < PROCESSES; p++) {
      servers.push(
        await spawnStdioServer({ command: process.execPath, args: [MCP], env: testEnv(library.dbPath), readyTimeoutMs: 30_000 }),
      );
    }
    const errors: string[] = [];
    const work = servers.map(async (server, p) => {
      for (let i = 0; i < SAVES_EACH; i++) {
        const name = `add_p${p}_n${i}`;
        const k = p * 10 + i;
        const [saved, searched] = await Promise.all([
          server.client.callTool(
            {
              name: "save_function",
              arguments: {
                name,
                code: functionCode(name, k),
                description: `Add ${k} to a number`,
                test_cases: [{ input: { x: 1 }, expected: 1 + k }],
              },
            },
            { timeout: 120_000 },
          ),
          server.client.callTool({ name: "search_functions", arguments: { query: "add a constant to a number", limit: 5 } }),
        ]);
        for (const result of [saved, searched]) if (result.isError) errors.push(JSON.stringify(result.structuredContent));
        expect((saved.structuredContent as { status: string }).status).toBe("active");
      }
    });
    await Promise.all(work);
    expect(errors).toEqual([]);

    const listed = await servers[0]!.client.callTool({ name: "list_functions", arguments: { limit: 100 } });
    const names = ((listed.structuredContent as { functions: { name: string }[] }).functions ?? []).map((f) => f.name).sort();
    const expected = servers.flatMap((_s, p) => Array.from({ length: SAVES_EACH }, (_x, i) => `add_p${p}_n${i}`)).sort();
    expect(names).toEqual(expected);
    const found = await servers[2]!.client.callTool({ name: "search_functions", arguments: { query: "add 21 to a number", limit: 3 } });
    expect(found.isError).toBeFalsy();
    for (const server of servers) server.assertCleanStdout();
  }, 180_000);
});
