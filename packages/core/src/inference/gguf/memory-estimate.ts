import { GgmlType, ggmlBytesPerValue } from "./ggml-type.js";
import { metadataLayerNumber, metadataNumber, metadataString } from "./metadata-values.js";
import { GgufValueType } from "./types.js";
import type { GgufHeader } from "./types.js";

export interface MemoryEstimateOptions {
  /** Tokens per sequence (what the engine asks node-llama-cpp for). */
  contextSize: number;
  /** Parallel sequences; each gets its own `contextSize` cells. Default 1. */
  sequences?: number;
  /** Type of the K and V cache; llama.cpp's default is F16. */
  kvCacheType?: GgmlType;
  /** Tokens evaluated per step (n_ubatch); llama.cpp's default is 512. */
  batchSize?: number;
}

export interface MemoryEstimate {
  /** Bytes of all tensor data (weights), from the tensor infos and ggml block sizes. */
  readonly weightsBytes: number;
  /** Bytes of the K and V cache for every layer, cell and sequence. */
  readonly kvCacheBytes: number;
  /** Allowance for llama.cpp's compute buffers, logits and bookkeeping. */
  readonly computeBytes: number;
  readonly totalBytes: number;
  /** KV cells allocated: contextSize × sequences, rounded up to 256 as llama.cpp pads. */
  readonly kvCells: number;
}

/** llama.cpp pads the KV cache to a multiple of 256 cells. */
const KV_PAD = 256;
const MiB = 1024 * 1024;
/** Fixed overhead: ggml graph metadata, backend and scheduler structures, vocab tables. */
const FIXED_OVERHEAD_BYTES = 16 * MiB;

/**
 * Memory a model needs once loaded with a context, from its GGUF header alone (L-memory-bound):
 *
 *   weights  = Σ over tensors of (ne0 / blockSize) × typeSize × ne1 × ne2 × ne3
 *              (ggml block sizes: F32 4 bytes/value, F16 2, Q8_0 34 bytes per 32 values,
 *              Q4_0 18 per 32, Q4_K 144 per 256, ...)
 *   kvCells  = ceil(contextSize × sequences / 256) × 256
 *   kvCache  = n_layer × kvCells × (n_embd_k_gqa + n_embd_v_gqa) × bytesPerValue(kvCacheType)
 *              with n_embd_k_gqa = head_dim_k × n_head_kv (head_dim_k = key_length, else
 *              n_embd / n_head) and likewise for V; per-layer head counts are summed per layer.
 *   compute  = 4 bytes × ubatch × (max(n_vocab, n_head × kvCells) + 4 × n_embd + 3 × n_ff)
 *              + 4 bytes × n_vocab × sequences + 16 MiB
 *              where ubatch = min(batchSize, kvCells). The first term is the float32 graph peak:
 *              either the logits of a batch (n_vocab per token) or, without flash attention,
 *              the attention scores (n_head × kvCells per token) — they are not live at once —
 *              plus the residual stream, norms and feed-forward activations of one layer. The
 *              second is the logits output buffer (one row per sequence); the constant covers
 *              graph metadata and backend bookkeeping. It is an allowance, deliberately on the
 *              high side of what llama.cpp reports for its CPU compute buffer.
 *   total    = weights + kvCache + compute
 *
 * Weights are counted in full even though llama.cpp memory-maps them: on a machine without
 * enough free memory the mapped pages are evicted and generation thrashes.
 */
export function estimateModelMemory(header: GgufHeader, options: MemoryEstimateOptions): MemoryEstimate {
  const sequences = options.sequences ?? 1;
  if (!Number.isInteger(options.contextSize) || options.contextSize <= 0) throw new RangeError("contextSize must be a positive integer");
  if (!Number.isInteger(sequences) || sequences <= 0) throw new RangeError("sequences must be a positive integer");
  const weightsBytes = header.tensors.reduce((sum, t) => sum + t.byteLength, 0);

  const arch = metadataString(header, "general.architecture") ?? "";
  const key = (name: string) => `${arch}.${name}`;
  const nLayer = metadataNumber(header, key("block_count")) ?? 0;
  const nEmbd = metadataNumber(header, key("embedding_length")) ?? 0;
  const kvCells = Math.ceil((options.contextSize * sequences) / KV_PAD) * KV_PAD;
  const kvBytesPerValue = ggmlBytesPerValue(options.kvCacheType ?? GgmlType.F16);

  let kvValuesPerCell = 0;
  let maxHeads = 0;
  let maxFeedForward = 0;
  for (let layer = 0; layer < nLayer; layer++) {
    const nHead = metadataLayerNumber(header, key("attention.head_count"), layer) ?? 0;
    const nHeadKv = metadataLayerNumber(header, key("attention.head_count_kv"), layer) ?? nHead;
    const headDimK = metadataNumber(header, key("attention.key_length")) ?? (nHead > 0 ? nEmbd / nHead : 0);
    const headDimV = metadataNumber(header, key("attention.value_length")) ?? (nHead > 0 ? nEmbd / nHead : 0);
    kvValuesPerCell += (headDimK + headDimV) * nHeadKv;
    maxHeads = Math.max(maxHeads, nHead);
    maxFeedForward = Math.max(maxFeedForward, metadataLayerNumber(header, key("feed_forward_length"), layer) ?? 0);
  }
  const kvCacheBytes = Math.ceil(kvCells * kvValuesPerCell * kvBytesPerValue);

  const nVocab = vocabularySize(header);
  const ubatch = Math.min(options.batchSize ?? 512, kvCells);
  const graphPeak = 4 * ubatch * (Math.max(nVocab, maxHeads * kvCells) + 4 * nEmbd + 3 * maxFeedForward);
  const computeBytes = graphPeak + 4 * nVocab * sequences + FIXED_OVERHEAD_BYTES;

  return { weightsBytes, kvCacheBytes, computeBytes, totalBytes: weightsBytes + kvCacheBytes + computeBytes, kvCells };
}

function vocabularySize(header: GgufHeader): number {
  const tokens = header.metadata.get("tokenizer.ggml.tokens");
  if (tokens?.type === GgufValueType.ARRAY) return tokens.value.length;
  const embedding = header.tensors.find((t) => t.name === "token_embd.weight");
  return embedding?.dims[1] ?? 0;
}
