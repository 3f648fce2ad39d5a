/**
 * Both protocol eras through the built bin (`dist/mcp.js`): a 2025-11-25 handshake client
 * ("legacy") and a 2026-07-28 client ("modern", pinned: no fallback) each list and call every tool
 * and read every listed resource, over stdio and over `--http`. No model is configured: the model
 * tools answer the coded NOT_READY (L-adapter-required) in both eras; suggest_pattern and the
 * resources work from the catalog. Build first: `pnpm --filter @local-mcp/mochi-server build`.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { callEveryTool, readEveryResource, type ToolCase, withServerInEra } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { TEST_ENV } from "./helpers/tiny-model.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const ERAS = ["legacy", "modern"] as const;
let repo: string;
let env: Record<string, string>;

beforeAll(async () => {
  repo = copyFixtureRepo("mochi-eras-");
  const catalog = join(repo, ".mochi", "catalog.json");
  await indexInto(repo);
  env = { ...TEST_ENV, LOCAL_MCP_LOG_LEVEL: "warn", MOCHI_CATALOG: catalog };
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const CASES: Record<string, ToolCase> = {
  domain_query: { args: { instruction: "Where do tests live?", max_tokens: 8 }, expectError: "NOT_READY" },
  complete_code: { args: { prefix: "const x = ", max_tokens: 8 }, expectError: "NOT_READY" },
  suggest_pattern: { args: { goal: "custom error classes", limit: 3 } },
};

async function exercise(client: Client): Promise<void> {
  const outcomes = await callEveryTool(client, CASES);
  expect(outcomes.map((o) => [o.name, o.errorCode])).toEqual([
    ["domain_query", "NOT_READY"],
    ["complete_code", "NOT_READY"],
    ["suggest_pattern", undefined],
  ]);
  const read = await readEveryResource(client);
  expect(read).toContain("mochi://stats");
  expect(read.some((uri) => uri.startsWith("mochi://patterns/"))).toBe(true);
}

describe.each(ERAS)("mochi-mcp in the %s era", (era) => {
  // Over stdio the stdout must carry JSON-RPC only; either way the server must exit 0 (withServerInEra).
  it.each(["stdio", "http"] as const)(
    "over %s: lists and calls every tool, reads every resource",
    async (transport) => {
      await withServerInEra({ command: process.execPath, args: [MCP], env, era, transport }, exercise);
    },
    60_000,
  );
});
