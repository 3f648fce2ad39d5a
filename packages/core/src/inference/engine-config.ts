import { z } from "zod";

const GiB = 1024 ** 3;

/** How an engine runs a GGUF model; apps build it from their own env vars (MOCHI_MODEL, …). */
export const LlamaEngineConfigSchema = z.object({
  /** Path of the base model GGUF. */
  modelPath: z.string().min(1),
  /** GGUF LoRA adapters applied on top, each with its scale (0 turns it off). */
  adapters: z.array(z.object({ path: z.string().min(1), scale: z.number().min(0).max(8).default(1) })).default([]),
  /** `auto` picks Metal on Apple Silicon, else CUDA, else Vulkan, else CPU. */
  gpu: z.enum(["auto", "metal", "cuda", "vulkan", "cpu"]).default("auto"),
  /** CPU threads; unset lets llama.cpp decide. Use 1 for tiny models (see docs/inference.md). */
  threads: z.number().int().min(1).max(256).optional(),
  contextSize: z.number().int().min(64).max(1_048_576).default(4096),
  /** Parallel sequences: calls that run at once. */
  sequences: z.number().int().min(1).max(64).default(1),
  /** Calls that may wait for a free sequence; one more gets RESOURCE_EXHAUSTED. */
  maxQueue: z.number().int().min(0).max(10_000).default(16),
  /** L-memory-bound: the most this process may hold with the model loaded. */
  memoryBoundBytes: z
    .number()
    .positive()
    .default(32 * GiB),
  /** Default deadline of one call (L-response-time). */
  deadlineMs: z.number().int().positive().default(5_000),
  /** KV cache element type; `f32` for exact comparisons, `f16` (default) for memory. */
  kvCacheType: z.enum(["f16", "f32"]).default("f16"),
  flashAttention: z.boolean().default(false),
  /**
   * Keep the KV cache of the tokens a call shares with the sequence's previous prompt (and what it
   * generated) and evaluate only the rest, as node-llama-cpp's LlamaCompletion does. Off: every call
   * clears its sequence first.
   */
  reusePrefix: z.boolean().default(false),
  /** How much of llama.cpp's own log reaches the stderr logger. */
  llamaLogLevel: z.enum(["error", "warn", "info", "debug"]).default("warn"),
});
export type LlamaEngineConfig = z.input<typeof LlamaEngineConfigSchema>;
export type ResolvedLlamaEngineConfig = z.output<typeof LlamaEngineConfigSchema>;
