/**
 * A caller's AbortSignal stops LlamaEngine's generation loop at the next token (the signal tool
 * handlers get from core's deadline guard, which a client's cancellation aborts). A grammar forces
 * a long answer on the tiny generated model, so it cannot end early at end-of-sequence; the abort
 * goes out once the engine has logged that it is generating. The call rejects at once (the
 * deadline guard's "cancelled" TIMEOUT), the engine logs how many tokens it had generated (far fewer than the same
 * request uncancelled), and its single sequence is free for the next call.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/index.js";
import { LlamaEngine, type GenerateRequest } from "../../src/inference/index.js";
import { writeTinyLlamaGguf } from "../../src/testing/index.js";

/** 60 strings of exactly 48 characters: thousands of tokens of the tiny model's byte vocabulary. */
const LONG = { type: "array", items: { type: "string", minLength: 48, maxLength: 48 }, minItems: 60, maxItems: 60 };
const REQUEST: GenerateRequest = { prompt: { kind: "completion", text: "Once" }, jsonSchema: LONG, maxTokens: 3_500, deadlineMs: 600_000 };

let dir: string;
let engine: LlamaEngine;
const lines: string[] = [];
let onLine: (line: string) => void = () => undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "llama-cancel-"));
  const modelPath = join(dir, "tiny.gguf");
  await writeTinyLlamaGguf(modelPath, { contextLength: 4_096 });
  const logger = createLogger({
    name: "llama",
    level: "debug",
    write: (line) => {
      lines.push(line);
      onLine(line);
    },
  });
  engine = new LlamaEngine({ modelPath, threads: 1, contextSize: 4_096, sequences: 1, gpu: "cpu" }, { logger });
  await engine.load();
}, 60_000);

afterAll(async () => {
  await engine.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe("cancelling a LlamaEngine generation", () => {
  it("stops the loop at the next token, rejects at once, and frees the sequence", async () => {
    const controller = new AbortController();
    const from = lines.length;
    onLine = (line) => {
      if (/DEBUG .*generating/.test(line)) setTimeout(() => controller.abort("the test cancels"), 100);
    };
    const started = performance.now();
    await expect(engine.generate({ ...REQUEST, signal: controller.signal })).rejects.toMatchObject({
      code: "TIMEOUT",
      details: { cancelled: true },
    });
    const rejectedAfter = performance.now() - started;
    let stopped: string | undefined;
    await expect
      .poll(() => (stopped = lines.slice(from).find((line) => line.includes("generation stopped"))), { timeout: 10_000 })
      .toBeDefined();
    const { generated } = JSON.parse((stopped as string).slice((stopped as string).indexOf("{"))) as { generated: number };
    onLine = () => undefined;

    // The same request uncancelled runs on the same (single) sequence, to the end.
    const full = await engine.generate(REQUEST);
    console.log(
      `LlamaEngine: cancelled after ${generated} tokens (rejected in ${Math.round(rejectedAfter)} ms); uncancelled: ${full.tokensOut} tokens in ${Math.round(full.wallMs)} ms`,
    );
    expect(generated).toBeGreaterThan(0);
    expect(generated).toBeLessThan(full.tokensOut / 4);
    expect(rejectedAfter).toBeLessThan(full.wallMs / 2);
  }, 120_000);
});
