import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChatMLChatWrapper, resolveChatWrapper } from "node-llama-cpp";
import type { Llama, LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGgufHeader, readLoadableLoraHeader, readLoadableModelHeader } from "../../src/inference/gguf/index.js";
import type { GgufHeader } from "../../src/inference/gguf/index.js";
import { writeTinyLlamaGguf, writeTinyLoraGguf } from "../../src/testing/index.js";
import type { TinyLoraDefect, TinyModelInfo } from "../../src/testing/index.js";
import { referenceLogits } from "./fixtures/reference-forward.js";
import { evaluateLogits, getTestLlama, greedyCompletion, maxAbsDifference } from "./fixtures/test-llama.js";

let dir: string;
let llama: Llama;
let info: TinyModelInfo;
let header: GgufHeader;
let model: LlamaModel;
let loraPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tiny-model-"));
  llama = await getTestLlama();
  // Called with a path alone, the two writers give a matching pair.
  info = await writeTinyLlamaGguf(join(dir, "tiny.gguf"));
  loraPath = (await writeTinyLoraGguf(join(dir, "tiny-lora.gguf"))).path;
  header = await readLoadableModelHeader(info.path); // validated before llama.cpp sees it
  model = await llama.loadModel({ modelPath: info.path });
});
afterAll(async () => {
  await model?.dispose();
  await rm(dir, { recursive: true, force: true });
});

const PROMPT = "The tiny model says";

describe("the tiny llama model", () => {
  it("writes the same bytes for the same seed and different weights for another", async () => {
    await writeTinyLlamaGguf(join(dir, "again.gguf"));
    await writeTinyLlamaGguf(join(dir, "seed7.gguf"), { seed: 7 });
    const [first, again, other] = await Promise.all([info.path, join(dir, "again.gguf"), join(dir, "seed7.gguf")].map((p) => readFile(p)));
    expect(again?.equals(first ?? Buffer.alloc(0))).toBe(true);
    expect(other?.length).toBe(first?.length);
    expect(other?.equals(first ?? Buffer.alloc(0))).toBe(false);
  });

  it("loads in llama.cpp with the vocabulary, architecture and ChatML template it was written with", () => {
    expect([model.tokens.bos, model.tokens.eos]).toEqual([1, 2]);
    expect(model.fileInfo.metadata.general.architecture).toBe("llama");
    expect(header.tensors).toHaveLength(2 + 1 + 2 * 9);
    expect(model.tokens.infill.prefix).toBeNull();
    expect(resolveChatWrapper(model)).toBeInstanceOf(ChatMLChatWrapper);
    expect(model.detokenize(model.tokenize("héllo wörld"))).toBe("héllo wörld"); // byte fallback
  });

  it("generates the same greedy text twice", async () => {
    const first = await greedyCompletion(model, PROMPT, 24);
    const second = await greedyCompletion(model, PROMPT, 24);
    expect(model.tokenize(first).length).toBeGreaterThan(0);
    expect(second).toBe(first);
  });

  it("computes the logits of a float64 Hugging Face-layout reference (q/k RoPE permutation is right)", async () => {
    const tokens = model.tokenize("Hello there, the answer is", false);
    const ours = referenceLogits(info.weights, "llama", tokens);
    const theirs = await evaluateLogits(model, tokens);
    expect(theirs[0]).toHaveLength(270);
    expect(maxAbsDifference(theirs, ours)).toBeLessThan(1e-4);
  });

  it("with qwen2 (q/k/v biases, neox rope, no permutation) also matches the reference", async () => {
    const qwen = await writeTinyLlamaGguf(join(dir, "qwen2.gguf"), { architecture: "qwen2" });
    await readLoadableModelHeader(qwen.path);
    const qwenModel = await llama.loadModel({ modelPath: qwen.path });
    try {
      expect(qwenModel.fileInfo.metadata.general.architecture).toBe("qwen2");
      const tokens = qwenModel.tokenize("Hello there, the answer is", false);
      expect(maxAbsDifference(await evaluateLogits(qwenModel, tokens), referenceLogits(qwen.weights, "qwen2", tokens))).toBeLessThan(1e-4);
    } finally {
      await qwenModel.dispose();
    }
  });

  it("reports fill-in-the-middle support when written with FIM tokens", async () => {
    const fim = await writeTinyLlamaGguf(join(dir, "fim.gguf"), { fim: true });
    const fimModel = await llama.loadModel({ modelPath: fim.path });
    try {
      expect(fim.vocabulary.fim).toEqual({ prefix: 270, suffix: 271, middle: 272 });
      expect(fimModel.tokens.infill.prefix).toBe(270);
      expect(fimModel.tokens.infill.suffix).toBe(271);
      expect(fimModel.tokens.infill.middle).toBe(272);
      expect(fimModel.tokens.infill.prefixString).toBe("<|fim_prefix|>");
    } finally {
      await fimModel.dispose();
    }
  });
});

describe("the tiny LoRA adapter", () => {
  it("changes the greedy output, and scale 0 reproduces the base", async () => {
    await readLoadableLoraHeader(loraPath, header); // validated before llama.cpp sees it
    const base = await greedyCompletion(model, PROMPT, 24);
    const adapted = await greedyCompletion(model, PROMPT, 24, { filePath: loraPath, scale: 1 });
    const off = await greedyCompletion(model, PROMPT, 24, { filePath: loraPath, scale: 0 });
    expect(adapted).not.toBe(base);
    expect(off).toBe(base);
  });

  const DEFECTS: TinyLoraDefect[] = [
    "wrong-shape",
    "wrong-architecture",
    "alpha-float64",
    "alpha-uint32",
    "missing-alpha",
    "missing-lora-b",
  ];
  it.each(DEFECTS)("refuses the %s adapter with NOT_READY before llama.cpp sees it", async (defect) => {
    const path = join(dir, `${defect}.gguf`);
    await writeTinyLoraGguf(path, { defect });
    // The guard an engine runs before createContext({ lora }): it throws, so llama.cpp never gets the file.
    await expect(readLoadableLoraHeader(path, header)).rejects.toMatchObject({
      code: "NOT_READY",
      message: expect.stringContaining(path) as unknown as string,
    });
  });

  it("fits a qwen2 base when written for qwen2, and validates against it", async () => {
    const qwenHeader = await readGgufHeader((await writeTinyLlamaGguf(join(dir, "qwen2-base.gguf"), { architecture: "qwen2" })).path);
    const lora = await writeTinyLoraGguf(join(dir, "qwen2-lora.gguf"), { architecture: "qwen2" });
    await expect(readLoadableLoraHeader(lora.path, qwenHeader)).resolves.toBeDefined();
    await expect(readLoadableLoraHeader(lora.path, header)).rejects.toMatchObject({ code: "NOT_READY" });
  });
});
