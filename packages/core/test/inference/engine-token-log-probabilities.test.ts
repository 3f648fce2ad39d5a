import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/index.js";
import { LlamaEngine } from "../../src/inference/index.js";
import { writeTinyLlamaGguf, writeTinyLoraGguf } from "../../src/testing/index.js";
import { evaluateLogits, getTestLlama } from "./fixtures/test-llama.js";

// LlamaEngine.tokenLogProbabilities (mochi eval's held-out cross-entropy) against the log-softmax
// of the full logits node-llama-cpp gives for the same tokens, on the tiny generated model.
let dir: string;
let modelPath: string;
let loraPath: string;
let model: LlamaModel;
const engines: LlamaEngine[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "engine-logprob-"));
  modelPath = join(dir, "tiny.gguf");
  loraPath = join(dir, "tiny-lora.gguf");
  await writeTinyLlamaGguf(modelPath);
  await writeTinyLoraGguf(loraPath);
  model = await (await getTestLlama()).loadModel({ modelPath });
});

afterAll(async () => {
  for (const engine of engines) await engine.dispose();
  await model?.dispose();
  await rm(dir, { recursive: true, force: true });
});

function engine(options: { reusePrefix?: boolean; lora?: boolean } = {}): LlamaEngine {
  const made = new LlamaEngine(
    {
      modelPath,
      ...(options.lora ? { adapters: [{ path: loraPath, scale: 1 }] } : {}),
      gpu: "cpu",
      threads: 1,
      contextSize: 256,
      kvCacheType: "f32",
      reusePrefix: options.reusePrefix ?? false,
      // The first call loads the model too: generous, for a busy 2-core machine (5 s was missed in CI).
      deadlineMs: 60_000,
    },
    { logger: silentLogger },
  );
  engines.push(made);
  return made;
}

/** ln softmax(logits)[token]. */
function logSoftmaxAt(logits: Float64Array, token: number): number {
  const max = Math.max(...logits);
  let sum = 0;
  for (const value of logits) sum += Math.exp(value - max);
  return (logits[token] as number) - max - Math.log(sum);
}

const TEXT = "export function area(width: number, height: number): number {\n  return width * height;\n}\n";

describe("LlamaEngine.tokenLogProbabilities", () => {
  it("gives ln p of each token from `from` on, as the log-softmax of the full logits at the position before", async () => {
    const tokens = [...model.tokenize(TEXT)];
    const from = 10;
    const scored = await engine().tokenLogProbabilities(tokens, from);
    expect(scored).toHaveLength(tokens.length - from);
    const logits = await evaluateLogits(model, tokens);
    scored.forEach((value, i) => {
      const position = from + i;
      expect(value).toBeLessThan(0);
      expect(Math.abs(value - logSoftmaxAt(logits[position - 1] as Float64Array, tokens[position] as number))).toBeLessThan(1e-4);
    });
  });

  it("keeps the cache of a shared prefix (reusePrefix) without changing the values, and an adapter changes them", async () => {
    const tokens = [...model.tokenize(TEXT)];
    const reusing = engine({ reusePrefix: true });
    const first = await reusing.tokenLogProbabilities(tokens, 12);
    const again = await reusing.tokenLogProbabilities(tokens, 12);
    const fresh = await engine().tokenLogProbabilities(tokens, 12);
    again.forEach((value, i) => expect(Math.abs(value - (first[i] as number))).toBeLessThan(1e-4));
    fresh.forEach((value, i) => expect(Math.abs(value - (first[i] as number))).toBeLessThan(1e-4));
    const adapted = await engine({ lora: true }).tokenLogProbabilities(tokens, 12);
    expect(adapted.some((value, i) => Math.abs(value - (first[i] as number)) > 1e-3)).toBe(true);
  });

  it("refuses a start outside the tokens with INVALID_INPUT", async () => {
    await expect(engine().tokenLogProbabilities([1, 2, 3], 0)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(engine().tokenLogProbabilities([1, 2, 3], 4)).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
