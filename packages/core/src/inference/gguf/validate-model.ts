import { MetadataChecker } from "./metadata-checks.js";
import { metadataString } from "./metadata-values.js";
import type { GgufProblem } from "./problems.js";
import { checkTensorLayout } from "./tensor-layout.js";
import { GgufValueType } from "./types.js";
import type { GgufHeader } from "./types.js";

/**
 * Architectures whose hyperparameters and tensors are checked in full. Both use RMS norm, RoPE
 * and a SwiGLU feed-forward with the same tensor names; qwen2 adds optional q/k/v biases. Other
 * architectures get the checks every llama.cpp model needs (context, embedding and block counts,
 * tokenizer) and the tensor layout.
 */
export const FULLY_CHECKED_ARCHITECTURES = ["llama", "qwen2"] as const;

/** Tokenizer models llama.cpp knows (llama-vocab.cpp); any other aborts the load. */
const TOKENIZER_MODELS = new Set([
  "no_vocab",
  "none",
  "llama",
  "bert",
  "gpt2",
  "hybriddna",
  "whitespace",
  "t5",
  "rwkv",
  "test",
  "plamo2",
  "gemma4",
]);

/** Special-token ids llama.cpp reads with a UINT32 type check. */
const SPECIAL_TOKEN_KEYS = [
  "bos",
  "eos",
  "eot",
  "eom",
  "unknown",
  "seperator",
  "padding",
  "mask",
  "fim_pre",
  "fim_suf",
  "fim_mid",
  "fim_pad",
  "fim_rep",
  "fim_sep",
].map((name) => `tokenizer.ggml.${name}_token_id`);

/** The hyperparameters of a llama-family model, as validation found them. */
export interface ModelHyperparameters {
  readonly architecture: string;
  readonly contextLength: number;
  readonly embeddingLength: number;
  readonly blockCount: number;
  readonly headCount: number;
  readonly headCountKv: number;
  readonly headDimK: number;
  readonly headDimV: number;
  readonly feedForwardLength: number;
  readonly vocabSize: number;
}

/**
 * Checks a model header before llama.cpp sees it: a missing or mistyped hyperparameter aborts
 * the whole process inside llama.cpp, so every key llama.cpp reads is checked
 * here for presence and stored type, the tokenizer for completeness, the tensors of llama and
 * qwen2 for presence and shape, and the data section for truncation. Returns every problem found
 * (empty when the file is fit to load).
 */
export function validateModelHeader(header: GgufHeader): GgufProblem[] {
  const check = new MetadataChecker(header);
  if (metadataString(header, "general.type") === "adapter") {
    check.report("this is an adapter (general.type=adapter), not a model");
    return check.problems;
  }
  const architecture = check.string("general.architecture", true, " (llama.cpp cannot tell what model this is)");
  if (architecture !== undefined) {
    const hparams = checkHyperparameters(check, architecture);
    checkTokenizer(check);
    if (hparams !== undefined && (FULLY_CHECKED_ARCHITECTURES as readonly string[]).includes(architecture)) {
      checkLlamaFamilyTensors(check, header, hparams);
    }
  }
  return [...check.problems, ...checkTensorLayout(header)];
}

/**
 * The hyperparameters of a llama-family header (undefined when a needed key is missing or
 * invalid; `validateModelHeader` says which).
 */
export function modelHyperparameters(header: GgufHeader): ModelHyperparameters | undefined {
  const architecture = metadataString(header, "general.architecture");
  if (architecture === undefined) return undefined;
  return checkHyperparameters(new MetadataChecker(header), architecture);
}

function checkHyperparameters(check: MetadataChecker, arch: string): ModelHyperparameters | undefined {
  const fullyChecked = (FULLY_CHECKED_ARCHITECTURES as readonly string[]).includes(arch);
  const contextLength = check.uint32(`${arch}.context_length`, true, { positive: true });
  const embeddingLength = check.uint32(`${arch}.embedding_length`, true, { positive: true });
  const blockCount = check.uint32(`${arch}.block_count`, true, { positive: true });
  if (blockCount !== undefined && blockCount > 512)
    check.report(`${arch}.block_count is ${blockCount}; llama.cpp allows at most 512 layers`);
  const feedForward = check.perLayer(`${arch}.feed_forward_length`, blockCount, fullyChecked, { positive: fullyChecked });
  const heads = check.perLayer(`${arch}.attention.head_count`, blockCount, fullyChecked, { positive: fullyChecked });
  const headsKv = check.perLayer(`${arch}.attention.head_count_kv`, blockCount, fullyChecked, { positive: fullyChecked });
  if (fullyChecked) check.float32(`${arch}.attention.layer_norm_rms_epsilon`, true, { positive: true });
  const keyLength = check.uint32(`${arch}.attention.key_length`, false, { positive: true });
  const valueLength = check.uint32(`${arch}.attention.value_length`, false, { positive: true });
  const ropeDims = check.uint32(`${arch}.rope.dimension_count`, false);
  check.float32(`${arch}.rope.freq_base`, false, { positive: true });
  check.uint32(`${arch}.vocab_size`, false);
  const vocabSize = check.array("tokenizer.ggml.tokens", [GgufValueType.STRING], false);

  const headCount = heads?.[0];
  const headCountKv = headsKv?.[0];
  if (embeddingLength === undefined || blockCount === undefined || contextLength === undefined) return undefined;
  if (headCount === undefined || headCountKv === undefined || feedForward?.[0] === undefined || vocabSize === undefined) return undefined;
  if (headCount === 0 || headCountKv === 0) return undefined;
  if (keyLength === undefined && embeddingLength % headCount !== 0) {
    check.report(`${arch}.embedding_length ${embeddingLength} is not divisible by ${arch}.attention.head_count ${headCount}`);
    return undefined;
  }
  if (headCount % headCountKv !== 0) {
    check.report(`${arch}.attention.head_count ${headCount} is not a multiple of head_count_kv ${headCountKv}`);
    return undefined;
  }
  const headDimK = keyLength ?? embeddingLength / headCount;
  const headDimV = valueLength ?? embeddingLength / headCount;
  if (fullyChecked && ropeDims !== undefined && ropeDims !== headDimK) {
    check.report(`${arch}.rope.dimension_count is ${ropeDims} but the head size is ${headDimK}`);
  }
  return {
    architecture: arch,
    contextLength,
    embeddingLength,
    blockCount,
    headCount,
    headCountKv,
    headDimK,
    headDimV,
    feedForwardLength: feedForward[0],
    vocabSize,
  };
}

function checkTokenizer(check: MetadataChecker): void {
  const model = check.string("tokenizer.ggml.model", true, " (llama.cpp needs the tokenizer type)");
  if (model === undefined) return;
  if (!TOKENIZER_MODELS.has(model)) {
    check.report(`tokenizer.ggml.model "${model}" is not a tokenizer llama.cpp knows`);
    return;
  }
  if (model === "none" || model === "no_vocab") return;
  const why = " (llama.cpp needs the vocabulary)";
  const tokens = check.array("tokenizer.ggml.tokens", [GgufValueType.STRING], true, why);
  if (tokens === 0) check.report("tokenizer.ggml.tokens is empty");
  const types = check.array("tokenizer.ggml.token_type", [GgufValueType.INT32], true, " (llama.cpp needs the token types)");
  if (tokens !== undefined && types !== undefined && types < tokens) {
    check.report(`tokenizer.ggml.token_type has ${types} entries for ${tokens} tokens`);
  }
  const scores = check.array("tokenizer.ggml.scores", [GgufValueType.FLOAT32, GgufValueType.INT32], false);
  if (tokens !== undefined && scores !== undefined && scores < tokens) {
    check.report(`tokenizer.ggml.scores has ${scores} entries for ${tokens} tokens`);
  }
  if (model === "gpt2") check.array("tokenizer.ggml.merges", [GgufValueType.STRING], true, " (a BPE tokenizer needs its merges)");
  for (const key of SPECIAL_TOKEN_KEYS) {
    const id = check.uint32(key, false);
    if (id !== undefined && tokens !== undefined && id >= tokens) check.report(`${key} is ${id}, outside the ${tokens}-token vocabulary`);
  }
}

/** Checks presence and shape (innermost-first) of the tensors llama.cpp creates for llama and qwen2. */
function checkLlamaFamilyTensors(check: MetadataChecker, header: GgufHeader, h: ModelHyperparameters): void {
  const byName = new Map(header.tensors.map((t) => [t.name, t] as const));
  const expect = (name: string, dims: readonly number[], required = true): void => {
    const tensor = byName.get(name);
    if (tensor === undefined) {
      if (required) check.report(`missing tensor "${name}"`);
      return;
    }
    if (tensor.dims.length !== dims.length || tensor.dims.some((d, i) => d !== dims[i])) {
      check.report(`tensor "${name}" has shape [${tensor.dims.join(", ")}], expected [${dims.join(", ")}]`);
    }
  };
  const { embeddingLength: n, vocabSize, headCount, headCountKv, headDimK, headDimV } = h;
  expect("token_embd.weight", [n, vocabSize]);
  expect("output_norm.weight", [n]);
  expect("output.weight", [n, vocabSize], false);
  const feedForward = new MetadataChecker(header).perLayer(`${h.architecture}.feed_forward_length`, h.blockCount, false) ?? [];
  const experts = header.metadata.has(`${h.architecture}.expert_count`);
  for (let i = 0; i < h.blockCount; i++) {
    const blk = `blk.${i}`;
    const q = headDimK * headCount;
    const k = headDimK * headCountKv;
    const v = headDimV * headCountKv;
    expect(`${blk}.attn_norm.weight`, [n]);
    if (byName.has(`${blk}.attn_qkv.weight`)) {
      expect(`${blk}.attn_qkv.weight`, [n, q + k + v]);
    } else {
      expect(`${blk}.attn_q.weight`, [n, q]);
      expect(`${blk}.attn_k.weight`, [n, k]);
      expect(`${blk}.attn_v.weight`, [n, v]);
      expect(`${blk}.attn_q.bias`, [q], false);
      expect(`${blk}.attn_k.bias`, [k], false);
      expect(`${blk}.attn_v.bias`, [v], false);
    }
    expect(`${blk}.attn_output.weight`, [headDimV * headCount, n]);
    expect(`${blk}.ffn_norm.weight`, [n]);
    const ff = feedForward[i];
    if (!experts && ff !== undefined) {
      expect(`${blk}.ffn_gate.weight`, [n, ff]);
      expect(`${blk}.ffn_up.weight`, [n, ff]);
      expect(`${blk}.ffn_down.weight`, [ff, n]);
    }
  }
}
