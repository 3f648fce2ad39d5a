import { rmSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STOCK_MODEL_NOTE } from "../src/domain/model/served-model.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { resourceText } from "./helpers/resource-text.js";
import { connectMochi, writeTinyModelFiles, type ConnectedMochi, type TinyModelFiles } from "./helpers/tiny-model.js";

// MOCHI_ADAPTER=none: the stock base model (here the tiny generated GGUF) serves without an
// adapter, and every model answer and mochi://stats say so; without it the adapter law holds.

let model: TinyModelFiles;
let repo: string;
const open: ConnectedMochi[] = [];

beforeAll(async () => {
  model = await writeTinyModelFiles();
  repo = copyFixtureRepo();
  await indexInto(repo);
});

afterAll(async () => {
  for (const mochi of open) await mochi.close();
  for (const dir of [model.dir, repo]) rmSync(dir, { recursive: true, force: true });
});

async function serve(env: Record<string, string>): Promise<ConnectedMochi> {
  const mochi = await connectMochi(env, repo);
  open.push(mochi);
  return mochi;
}

async function call(mochi: ConnectedMochi, name: string, args: Record<string, unknown>) {
  const result = (await mochi.connection.client.callTool({ name, arguments: args })) as CallToolResult;
  return { result, body: result.structuredContent as Record<string, unknown> };
}

describe("MOCHI_ADAPTER=none", () => {
  it("serves the stock base model; every model answer says adapter: null, with the note at full; stats say so", async () => {
    const mochi = await serve({ MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: "none" });
    expect(mochi.runtime.model.readiness.isReady).toBe(true);
    expect(mochi.runtime.model.name).toBe("tiny-fim.gguf");

    const minimal = await call(mochi, "domain_query", { instruction: "What is this?", max_tokens: 4, response_level: "minimal" });
    expect(minimal.result.isError).toBeFalsy();
    expect(minimal.body).toHaveProperty("adapter", null);
    expect(minimal.body.adapter_note).toBeUndefined();
    const full = await call(mochi, "domain_query", { instruction: "What is this?", max_tokens: 4, response_level: "full" });
    expect(full.body).toMatchObject({ adapter: null, adapter_note: STOCK_MODEL_NOTE, model: "tiny-fim.gguf" });

    const completion = await call(mochi, "complete_code", { prefix: "export const answer = ", max_tokens: 4, response_level: "minimal" });
    expect(completion.result.isError).toBeFalsy();
    expect(completion.body).toHaveProperty("adapter", null);
    const completionFull = await call(mochi, "complete_code", { prefix: "export const answer = ", max_tokens: 4, response_level: "full" });
    expect(completionFull.body.adapter_note).toBe(STOCK_MODEL_NOTE);

    const suggested = await call(mochi, "suggest_pattern", { goal: "custom error classes", response_level: "full" });
    expect(suggested.body).toMatchObject({ ranked_by: "embeddings+model", adapter: null, adapter_note: STOCK_MODEL_NOTE });

    const stats = JSON.parse(resourceText(await mochi.connection.client.readResource({ uri: "mochi://stats" }))) as {
      model: Record<string, unknown>;
    };
    expect(stats.model).toMatchObject({
      serving: "stock",
      adapter: null,
      note: STOCK_MODEL_NOTE,
      adapters: [],
      readiness: { state: "ready" },
    });
  });

  it("without it, a model with no adapter keeps L-adapter-required: NOT_READY, the suggestion naming MOCHI_ADAPTER=none", async () => {
    const mochi = await serve({ MOCHI_MODEL: model.fimModel });
    const { result } = await call(mochi, "complete_code", { prefix: "const x = " });
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as { error: { code: string; message: string; suggestion: string; recoverable: boolean } })
      .error;
    expect(error).toMatchObject({ code: "NOT_READY", recoverable: false });
    expect(error.message).toContain("MOCHI_ADAPTER is not set");
    expect(error.suggestion).toContain("MOCHI_ADAPTER=none serves the stock base model");
    expect(mochi.runtime.model.name).toBeUndefined();
  });

  it("with the adapter, answers carry no adapter or backend field (as before)", async () => {
    const mochi = await serve({ MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora });
    const { body } = await call(mochi, "domain_query", { instruction: "What is this?", max_tokens: 4, response_level: "full" });
    expect(body.model).toBe("tiny-fim.gguf+tiny-lora.gguf@1");
    for (const key of ["adapter", "backend", "adapter_note"]) expect(body).not.toHaveProperty(key);
    const stats = JSON.parse(resourceText(await mochi.connection.client.readResource({ uri: "mochi://stats" }))) as {
      model: Record<string, unknown>;
    };
    expect(stats.model.serving).toBe("adapter");
    expect(stats.model).not.toHaveProperty("adapter");
  });
});
