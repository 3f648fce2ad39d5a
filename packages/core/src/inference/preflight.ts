import { stat } from "node:fs/promises";
import type { MemoryGuard } from "../guards/memory.js";
import type { ResolvedLlamaEngineConfig } from "./engine-config.js";
import { GgmlType } from "./gguf/ggml-type.js";
import { readLoadableLoraHeader, readLoadableModelHeader } from "./gguf/loadable.js";
import { estimateModelMemory, type MemoryEstimate } from "./gguf/memory-estimate.js";
import { longestTokenText } from "./prompt-bound.js";

export interface ModelPreflight {
  estimate: MemoryEstimate;
  /** The most UTF-16 code units one token stands for (`longestTokenText`); undefined: unknown. */
  longestTokenText: number | undefined;
}

/**
 * Everything checked before a file reaches llama.cpp, which aborts the whole process on a missing
 * hyperparameter or a non-FLOAT32 LoRA alpha: the model's header and keys, each adapter against
 * the model (NOT_READY naming the file and the problem), and the memory the load will take
 * against the bound and the free memory (RESOURCE_EXHAUSTED, L-memory-bound).
 */
export async function preflightModel(config: ResolvedLlamaEngineConfig, guard: MemoryGuard): Promise<ModelPreflight> {
  const model = await readLoadableModelHeader(config.modelPath);
  let adapterBytes = 0;
  for (const adapter of config.adapters) {
    await readLoadableLoraHeader(adapter.path, model);
    adapterBytes += (await stat(adapter.path)).size;
  }
  const estimate = estimateModelMemory(model, {
    contextSize: config.contextSize,
    sequences: config.sequences,
    kvCacheType: config.kvCacheType === "f32" ? GgmlType.F32 : GgmlType.F16,
  });
  guard.admit(estimate.totalBytes + adapterBytes, `Loading ${config.modelPath}`);
  return { estimate, longestTokenText: longestTokenText(model) };
}
