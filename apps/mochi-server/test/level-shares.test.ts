/**
 * minimal is what a model needs to decide its next step: on the sample repository's catalog,
 * suggest_pattern's minimal answer (each pattern's name, relevance and uri) costs at most 25 % of
 * its full one (o200k tokens), unless it is 120 tokens or less. Not held: complete_code, whose
 * minimal answer is the completion and its alternatives (the answer itself, pinned at minimal by
 * tools.test.ts).
 */
import { rmSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { assertMinimalShare, connectInProcess, type InProcessConnection } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MochiRuntime } from "../src/runtime.js";
import { createMochiServer } from "../src/server.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { startRuntime } from "./helpers/tiny-model.js";

let repo: string;
let runtime: MochiRuntime;
let connection: InProcessConnection;

beforeAll(async () => {
  repo = copyFixtureRepo();
  indexInto(repo);
  runtime = await startRuntime({}, repo);
  connection = await connectInProcess(createMochiServer(runtime));
});

afterAll(async () => {
  await connection?.close();
  await runtime?.dispose();
  rmSync(repo, { recursive: true, force: true });
});

async function at(level: "minimal" | "full", args: Record<string, unknown>) {
  const result = (await connection.client.callTool({ name: "suggest_pattern", arguments: { ...args, response_level: level } })) as CallToolResult;
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent;
}

describe("minimal ≤ 25 % of full (once minimal is over 120 tokens)", () => {
  it("suggest_pattern, catalog only", async () => {
    const args = { goal: "report a failure with a custom error class that carries an error code", limit: 10 };
    const figures = await assertMinimalShare("suggest_pattern", { minimal: await at("minimal", args), full: await at("full", args) });
    expect(figures.full).toBeGreaterThan(figures.minimal);
  });
});
