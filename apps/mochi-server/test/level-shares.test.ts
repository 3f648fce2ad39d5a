/**
 * minimal is what a model needs to decide its next step: on the sample repository's catalog,
 * suggest_pattern's minimal answer (each pattern's name, relevance and uri) costs at most 25 % of
 * its full one (o200k tokens), unless it is 120 tokens or less; complete_code's minimal answer
 * (the completion; the alternatives from standard, its default) too, on the tiny generated model.
 */
import { rmSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { assertMinimalShare, connectInProcess, type InProcessConnection } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MochiRuntime } from "../src/runtime.js";
import { createMochiServer } from "../src/server.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { startRuntime, writeTinyModelFiles, type TinyModelFiles } from "./helpers/tiny-model.js";

let repo: string;
let runtime: MochiRuntime;
let connection: InProcessConnection;
let model: TinyModelFiles;
let modelRuntime: MochiRuntime;
let withModel: InProcessConnection;

beforeAll(async () => {
  repo = copyFixtureRepo();
  indexInto(repo);
  runtime = await startRuntime({}, repo);
  connection = await connectInProcess(createMochiServer(runtime));
  model = await writeTinyModelFiles();
  modelRuntime = await startRuntime({ MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora }, repo);
  withModel = await connectInProcess(createMochiServer(modelRuntime));
});

afterAll(async () => {
  await connection?.close();
  await runtime?.dispose();
  await withModel?.close();
  await modelRuntime?.dispose();
  rmSync(repo, { recursive: true, force: true });
  if (model) rmSync(model.dir, { recursive: true, force: true });
});

async function at(level: "minimal" | "full", args: Record<string, unknown>, tool = "suggest_pattern", on = connection) {
  const result = (await on.client.callTool({ name: tool, arguments: { ...args, response_level: level } })) as CallToolResult;
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent;
}

describe("minimal ≤ 25 % of full (once minimal is over 120 tokens)", () => {
  it("suggest_pattern, catalog only", async () => {
    const args = { goal: "report a failure with a custom error class that carries an error code", limit: 10 };
    const figures = await assertMinimalShare("suggest_pattern", { minimal: await at("minimal", args), full: await at("full", args) });
    expect(figures.full).toBeGreaterThan(figures.minimal);
  });

  it("complete_code, on the tiny model: the completion at minimal, the alternatives from standard", async () => {
    const args = { prefix: "export function add(a: number, b: number): number {\n  return ", suffix: ";\n}\n", language: "typescript", max_tokens: 24 };
    const minimal = await at("minimal", args, "complete_code", withModel);
    const full = await at("full", args, "complete_code", withModel);
    const figures = await assertMinimalShare("complete_code", { minimal, full });
    // Held whatever the completion's length (the tiny model's may be short enough to pass the floor).
    expect(figures.ratio).toBeLessThanOrEqual(0.25);
    expect(minimal).not.toHaveProperty("alternatives");
  });
});
