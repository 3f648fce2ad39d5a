/**
 * minimal is what a model needs to decide its next step: on the sample repository's catalog,
 * suggest_pattern's minimal answer (each pattern's name, relevance and uri) costs at most 25 % of
 * its full one (o200k tokens), unless it is 120 tokens or less; complete_code's minimal answer
 * (the completion; the alternatives from standard, its default) too, on the tiny generated model.
 */
import { rmSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { assertMinimalShare, type InProcessConnection } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { connectMochi, writeTinyModelFiles, type ConnectedMochi, type TinyModelFiles } from "./helpers/tiny-model.js";

let repo: string;
let model: TinyModelFiles;
let catalogOnly: ConnectedMochi | undefined;
let modelServer: ConnectedMochi | undefined;
let connection: InProcessConnection;
let withModel: InProcessConnection;

beforeAll(async () => {
  repo = copyFixtureRepo();
  await indexInto(repo);
  catalogOnly = await connectMochi({}, repo);
  connection = catalogOnly.connection;
  model = await writeTinyModelFiles();
  modelServer = await connectMochi({ MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora }, repo);
  withModel = modelServer.connection;
});

afterAll(async () => {
  await catalogOnly?.close();
  await modelServer?.close();
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
    const args = {
      prefix: "export function add(a: number, b: number): number {\n  return ",
      suffix: ";\n}\n",
      language: "typescript",
      max_tokens: 24,
      max_alternatives: 3,
    };
    const minimal = await at("minimal", args, "complete_code", withModel);
    const full = await at("full", args, "complete_code", withModel);
    const figures = await assertMinimalShare("complete_code", { minimal, full });
    // Held whatever the completion's length (the tiny model's may be short enough to pass the floor).
    expect(figures.ratio).toBeLessThanOrEqual(0.25);
    expect(minimal).not.toHaveProperty("alternatives");
  });
});
