/**
 * Both protocol eras through the built bin (`dist/mcp.js`): a 2025-11-25 handshake client
 * ("legacy") and a 2026-07-28 client ("modern", pinned: no fallback) each list and call every tool
 * and read every listed resource, over stdio and over `--http`. The library starts with one
 * function stored without the gate, and save_function skips the tests (the gate's own tests
 * cover the sandbox): a call here proves the protocol path, not the gate — and, the saved
 * functions being unverified, resources/list (active functions only) stays empty; the
 * resources are tested in resource-changes.test.ts. Build first:
 * `pnpm --filter @local-mcp/solo-assets-server build`.
 */
import { fileURLToPath } from "node:url";
import { callEveryTool, readEveryResource, type ToolCase, withServerInEra } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { tempLibrary, testEnv, testServices, type TempLibrary } from "./helpers/test-library.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const ERAS = ["legacy", "modern"] as const;
const libraries: TempLibrary[] = [];
afterEach(() => {
  for (const library of libraries.splice(0)) library.remove();
});

function library(): TempLibrary {
  const made = tempLibrary();
  libraries.push(made);
  return made;
}

const code = (name: string, k: number) => `def ${name}(x: int) -> int:\n    """Add ${k} to x."""\n    return x + ${k}\n`;

/** In tools/list order: `add_one` is in the library before these run (libraryWithAddOne), `add_two` by save_function. */
const CASES: Record<string, ToolCase> = {
  search_functions: { args: { query: "add a number", limit: 5 } },
  get_function: { args: { name: "add_one" } },
  save_function: { args: { name: "add_two", code: code("add_two", 2), description: "Add two to a number", skip_tests: true } },
  list_functions: { args: {} },
  get_function_history: { args: { name: "add_one" } },
  delete_function: { args: { name: "add_one" } },
  // Refused before anything is written: the folder is outside the server's directory.
  export_function: { args: { names: ["add_two"], to: "../.." }, expectError: "FORBIDDEN" },
};

/** A library holding `add_one`, stored without the gate (the bin's own save is save_function's case below). */
async function libraryWithAddOne(): Promise<TempLibrary> {
  const made = library();
  const services = testServices(made.dbPath);
  try {
    await commitUnchecked(services, { name: "add_one", code: code("add_one", 1), description: "Add one to a number" });
  } finally {
    await services.dispose();
  }
  return made;
}

async function exercise(client: Client): Promise<void> {
  const outcomes = await callEveryTool(client, CASES, { timeout: 120_000 });
  expect(outcomes.map((o) => o.name)).toEqual([
    "search_functions",
    "get_function",
    "save_function",
    "list_functions",
    "get_function_history",
    "delete_function",
    "export_function",
  ]);
  expect(outcomes.find((o) => o.name === "get_function")?.structuredContent).toMatchObject({ name: "add_one" });
  expect(await readEveryResource(client)).toEqual([]);
}

describe.each(ERAS)("solo-assets-mcp in the %s era", (era) => {
  // Over stdio the stdout must carry JSON-RPC only; either way the server must exit 0 (withServerInEra).
  it.each(["stdio", "http"] as const)(
    "over %s: lists and calls every tool",
    async (transport) => {
      await withServerInEra(
        {
          command: process.execPath,
          args: [MCP],
          env: testEnv((await libraryWithAddOne()).dbPath),
          readyTimeoutMs: 60_000,
          closeTimeoutMs: 15_000,
          era,
          transport,
        },
        exercise,
      );
    },
    180_000,
  );
});
