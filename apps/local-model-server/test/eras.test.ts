/**
 * Both protocol eras through the built bin (`dist/mcp.js`): a 2025-11-25 handshake client
 * ("legacy") and a 2026-07-28 client ("modern", pinned: no fallback) each list and call every tool
 * and read every listed resource, over stdio and over `--http`. Build first:
 * `pnpm --filter @local-mcp/local-model-server build`.
 */
import { join } from "node:path";
import { callEveryTool, readEveryResource, type ToolCase, withServerInEra } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRepo } from "./git-repo-fixture.js";
import { APP_DIR, tempDir } from "./helpers.js";

const MCP = join(APP_DIR, "dist/mcp.js");
const ERAS = ["legacy", "modern"] as const;

let repo: Awaited<ReturnType<typeof tempDir>>;
let state: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;

beforeAll(async () => {
  repo = await tempDir("local-model-eras-");
  state = await tempDir("local-model-eras-state-");
  buildRepo(repo.path);
  env = { LOCAL_MODEL_ROOTS: repo.path, LOCAL_MODEL_STATE_DIR: state.path, LOCAL_MCP_LOG_LEVEL: "warn" };
});
afterAll(async () => {
  await repo.remove();
  await state.remove();
});

/** A cheap valid call of every tool, answered by the exact parsers (no model; local_ask needs one); none writes a file. */
const CASES: Record<string, ToolCase> = {
  local_extract: { args: { task_type: "exports", files: ["src/keep.ts"] } },
  local_verify: {
    args: {
      checks: [{ id: "KEEP-01", description: "keep is exported", file: "src/keep.ts", condition: { type: "exports", value: "keep" } }],
    },
  },
  local_generate: { args: { template: "Hello {{name}}", variables: { name: "Ada" } } },
  local_git: { args: { task_type: "status" } },
  local_analyze: { args: { task_type: "functions", files: ["src/keep.ts"] } },
  // Needs a model, and none is configured: a coded NOT_READY saying how to set one.
  local_ask: { args: { question: "What does keep hold?", files: ["src/keep.ts"] }, expectError: "NOT_READY" },
};

async function exercise(client: Client): Promise<void> {
  const outcomes = await callEveryTool(client, CASES);
  expect(outcomes.map((o) => o.name)).toEqual([
    "local_extract",
    "local_verify",
    "local_generate",
    "local_git",
    "local_analyze",
    "local_ask",
  ]);
  expect(outcomes.find((o) => o.name === "local_verify")?.structuredContent).toMatchObject({
    success: true,
    data: { passed: 1, failed: 0 },
  });
  expect(await readEveryResource(client)).toEqual(["local://stats"]);
}

describe.each(ERAS)("local-model-mcp in the %s era", (era) => {
  // Over stdio the stdout must carry JSON-RPC only; either way the server must exit 0 (withServerInEra).
  it.each(["stdio", "http"] as const)(
    "over %s: lists and calls every tool, reads every resource",
    async (transport) => {
      await withServerInEra({ command: process.execPath, args: [MCP], env, cwd: APP_DIR, era, transport }, exercise);
    },
    60_000,
  );
});
