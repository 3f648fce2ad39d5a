import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Llama, LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLoadableLoraHeader, readLoadableModelHeader } from "../../src/inference/gguf/index.js";
import { convertPeftToGguf } from "../../src/inference/peft/index.js";
import { writeTinyLlamaGguf, writeTinyPeftAdapter } from "../../src/testing/index.js";
import type { TinyArchitecture, TinyModelInfo, TinyPeftOptions } from "../../src/testing/index.js";
import { referenceLogits } from "./fixtures/reference-forward.js";
import { evaluateLogits, getTestLlama, maxAbsDifference } from "./fixtures/test-llama.js";

/**
 * The converter's adapter, applied by llama.cpp to the base, must compute what the base with
 * PEFT's own merge W + scale·B·A computes (scale = alpha/r, or alpha/√r for rsLoRA). The merged
 * model is written by writeTinyLlamaGguf from PyTorch-layout weights, applying the q/k RoPE
 * permutation to the merged weight exactly as convert_hf_to_gguf would; the deltas come from
 * writeTinyPeftAdapter, computed from the stored (rounded) A and B without the converter.
 * F32 KV cache, no flash attention, 1 thread: llama.cpp then agrees with a float32 reference to
 * a few 1e-6, so 1e-4 is a tight bound next to the adapter's effect (several units of logit).
 */
const TOLERANCE = 1e-4;
const TEXT = "Hello there, the answer is 42!";

let dir: string;
let llama: Llama;
const bases = new Map<TinyArchitecture, { info: TinyModelInfo; model: LlamaModel }>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "peft-logits-"));
  llama = await getTestLlama();
  for (const architecture of ["llama", "qwen2"] as const) {
    const info = await writeTinyLlamaGguf(join(dir, `${architecture}-base.gguf`), { architecture });
    await readLoadableModelHeader(info.path);
    bases.set(architecture, { info, model: await llama.loadModel({ modelPath: info.path }) });
  }
});
afterAll(async () => {
  for (const { model } of bases.values()) await model.dispose();
  await rm(dir, { recursive: true, force: true });
});

const CASES: Array<[string, TinyArchitecture, TinyPeftOptions]> = [
  ["llama, F32, all seven projections", "llama", {}],
  ["qwen2, F32, all seven projections", "qwen2", { architecture: "qwen2" }],
  ["llama, rsLoRA, BF16 storage", "llama", { useRslora: true, dtype: "BF16", rank: 8, alpha: 16 }],
  [
    "llama, F16 storage, rsLoRA with rank_pattern and alpha_pattern",
    "llama",
    { dtype: "F16", useRslora: true, rankPattern: { down_proj: 2 }, alphaPattern: { q_proj: 24 } },
  ],
  [
    "qwen2, rsLoRA, lm_head and attention only",
    "qwen2",
    { architecture: "qwen2", useRslora: true, targetModules: ["q_proj", "k_proj", "o_proj", "lm_head"] },
  ],
];

describe("converted PEFT adapters in llama.cpp", () => {
  it.each(CASES)("%s: logits match the merged model within 1e-4", async (name, architecture, options) => {
    const base = bases.get(architecture);
    if (base === undefined) throw new Error("no base");
    const slug = name.replace(/\W+/g, "-");
    const peft = await writeTinyPeftAdapter(join(dir, slug), { seed: 11, ...options });
    const outPath = join(dir, `${slug}.gguf`);
    const result = await convertPeftToGguf({ adapterDir: peft.dir, outPath, baseModelPath: base.info.path });
    expect(result.validated).toBe(true);
    await readLoadableLoraHeader(outPath, await readLoadableModelHeader(base.info.path)); // the engine's guard passes

    const merged = await writeTinyLlamaGguf(join(dir, `${slug}-merged.gguf`), { architecture, mergedDeltas: peft.deltas });
    const mergedModel = await llama.loadModel({ modelPath: merged.path });
    try {
      const tokens = base.model.tokenize(TEXT, false);
      const adapted = await evaluateLogits(base.model, tokens, { filePath: outPath, scale: 1 });
      const expected = await evaluateLogits(mergedModel, tokens);
      const unadapted = await evaluateLogits(base.model, tokens);
      expect(maxAbsDifference(adapted, expected)).toBeLessThan(TOLERANCE);
      expect(maxAbsDifference(unadapted, expected)).toBeGreaterThan(0.5); // the adapter matters
    } finally {
      await mergedModel.dispose();
    }
  });

  it("llama: base + converted adapter computes PEFT's merged model in Hugging Face layout (float64 reference)", async () => {
    const base = bases.get("llama");
    if (base === undefined) throw new Error("no base");
    const peft = await writeTinyPeftAdapter(join(dir, "reference"), { seed: 12 });
    const outPath = join(dir, "reference.gguf");
    await convertPeftToGguf({ adapterDir: peft.dir, outPath, baseModelPath: base.info.path });
    // W + scale·B·A in PyTorch layout, no permutation anywhere: what PEFT's merge_and_unload gives.
    const hfMerged = new Map(base.info.weights);
    for (const delta of peft.deltas) {
      const weight = hfMerged.get(delta.tensor);
      if (weight === undefined) throw new Error(delta.tensor);
      hfMerged.set(delta.tensor, { shape: weight.shape, values: weight.values.map((v, i) => v + (delta.values[i] ?? 0)) });
    }
    const tokens = base.model.tokenize(TEXT, false);
    const adapted = await evaluateLogits(base.model, tokens, { filePath: outPath, scale: 1 });
    expect(maxAbsDifference(adapted, referenceLogits(hfMerged, "llama", tokens))).toBeLessThan(TOLERANCE);
  });
});
