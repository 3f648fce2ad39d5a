import { seededRandom } from "../seeded-random.js";
import { GgmlType } from "../inference/gguf/ggml-type.js";
import { ggufValue } from "../inference/gguf/metadata-values.js";
import { GgufValueType } from "../inference/gguf/types.js";
import type { GgufMetadataValue } from "../inference/gguf/types.js";
import { writeGgufFile } from "../inference/gguf/writer.js";
import type { GgufTensorToWrite } from "../inference/gguf/writer.js";
import { permuteRopeRows } from "../inference/peft/rope-permutation.js";

/**
 * Tiny GGUF models for tests: a llama (or qwen2) model with n_embd 64, 2 layers, 4 heads, 2 KV
 * heads, n_ff 128, F32 weights drawn from a seeded PRNG, a byte-level SentencePiece vocabulary and
 * a ChatML chat template; and LoRA adapters that fit it. Same options, same bytes.
 */
export const TINY_MODEL = {
  embeddingLength: 64,
  blockCount: 2,
  headCount: 4,
  headCountKv: 2,
  headDim: 16,
  feedForwardLength: 128,
  rmsEpsilon: 1e-5,
  ropeFreqBase: 10000,
} as const;

export type TinyArchitecture = "llama" | "qwen2";

export { seededRandom };

/** `count` values uniform in [-amplitude, amplitude). */
export function uniformValues(random: () => number, count: number, amplitude: number, center = 0): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = center + (random() * 2 - 1) * amplitude;
  return out;
}

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** llama.cpp token types (llama_token_type). */
const TOKEN_TYPE = { NORMAL: 1, UNKNOWN: 2, CONTROL: 3, BYTE: 6 } as const;
const MERGED_PIECES = ["▁t", "▁a", "he", "in", "er", "▁the", "on", "▁s"];
const FIM_TOKENS = ["<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>"] as const;

export interface TinyVocabulary {
  readonly tokens: readonly string[];
  readonly scores: readonly number[];
  readonly types: readonly number[];
  /** Ids of `<|fim_prefix|>`, `<|fim_suffix|>`, `<|fim_middle|>` when written. */
  readonly fim?: { readonly prefix: number; readonly suffix: number; readonly middle: number };
}

/**
 * `<unk>`, `<s>`, `</s>`, `<|im_start|>`, `<|im_end|>`, the 256 byte tokens `<0x00>`..`<0xFF>`
 * (type BYTE, so any text tokenizes), `▁` and a few merged pieces; FIM tokens last when asked.
 */
export function tinyVocabulary(fim = false): TinyVocabulary {
  const tokens: string[] = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"];
  const types: number[] = [TOKEN_TYPE.UNKNOWN, TOKEN_TYPE.CONTROL, TOKEN_TYPE.CONTROL, TOKEN_TYPE.CONTROL, TOKEN_TYPE.CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(TOKEN_TYPE.BYTE);
  }
  for (const piece of ["▁", ...MERGED_PIECES]) {
    tokens.push(piece);
    types.push(TOKEN_TYPE.NORMAL);
  }
  // SentencePiece merges by score: longer pieces score higher, so "▁the" wins over "▁t"+"he".
  const scores = tokens.map((t, i) => (types[i] === TOKEN_TYPE.NORMAL ? -100 + [...t].length * 10 - i / 1000 : 0));
  if (!fim) return { tokens, scores, types };
  const first = tokens.length;
  for (const token of FIM_TOKENS) {
    tokens.push(token);
    types.push(TOKEN_TYPE.CONTROL);
    scores.push(0);
  }
  return { tokens, scores, types, fim: { prefix: first, suffix: first + 1, middle: first + 2 } };
}

/** A weight in PyTorch layout: shape [out, in] (or [n]) with row-major values. */
export interface TinyWeight {
  readonly shape: readonly number[];
  readonly values: Float32Array;
}

/** A delta to add to a weight, in PyTorch layout (out × in, row-major), before the RoPE permutation. */
export interface TinyWeightDelta {
  /** The GGUF tensor name, e.g. `blk.0.attn_q.weight`. */
  readonly tensor: string;
  readonly values: Float32Array;
}

export interface TinyLlamaOptions {
  /** PRNG seed of the weights; default 1. */
  seed?: number;
  /** `<arch>.context_length`; default 2048. */
  contextLength?: number;
  /** Add `<|fim_prefix|>`, `<|fim_suffix|>`, `<|fim_middle|>` and the `tokenizer.ggml.fim_*_token_id` keys. */
  fim?: boolean;
  /** "llama" (default) or "qwen2" (adds q/k/v biases, no RoPE permutation). */
  architecture?: TinyArchitecture;
  /** Leave out `output.weight`, so the output is tied to `token_embd.weight`. */
  tiedEmbeddings?: boolean;
  /** Deltas merged into the weights, e.g. a LoRA's scale·B·A (the converter's reference model). */
  mergedDeltas?: readonly TinyWeightDelta[];
  /** `tokenizer.ggml.add_bos_token`; default true (llama.cpp puts `<s>` ahead of every prompt). */
  addBosToken?: boolean;
}

export interface TinyModelInfo {
  readonly path: string;
  readonly architecture: TinyArchitecture;
  readonly vocabulary: TinyVocabulary;
  /**
   * Every weight by GGUF name in PyTorch (Hugging Face) layout — q/k before the RoPE permutation
   * the file applies for llama — with merged deltas included. A reference forward pass uses these.
   */
  readonly weights: ReadonlyMap<string, TinyWeight>;
}

/**
 * The output shape [out, in] of each linear weight of a block, in PyTorch layout, by GGUF name
 * suffix. `in` of q/k/v/gate/up is n_embd.
 */
export function tinyBlockShapes(): ReadonlyMap<string, readonly [number, number]> {
  const { embeddingLength: d, headCountKv, headDim, feedForwardLength: ff } = TINY_MODEL;
  const kv = headCountKv * headDim;
  return new Map<string, readonly [number, number]>([
    ["attn_q", [d, d]],
    ["attn_k", [kv, d]],
    ["attn_v", [kv, d]],
    ["attn_output", [d, d]],
    ["ffn_gate", [ff, d]],
    ["ffn_up", [ff, d]],
    ["ffn_down", [d, ff]],
  ]);
}

/** The weights of the tiny model in PyTorch layout, drawn in a fixed order from `seed`. */
function tinyWeights(seed: number, architecture: TinyArchitecture, vocabSize: number, tied: boolean): Map<string, TinyWeight> {
  const random = seededRandom(seed);
  const { embeddingLength: d, blockCount } = TINY_MODEL;
  const weights = new Map<string, TinyWeight>();
  const add = (name: string, shape: readonly number[], amplitude: number, center = 0) => {
    weights.set(name, {
      shape,
      values: uniformValues(
        random,
        shape.reduce((a, b) => a * b, 1),
        amplitude,
        center,
      ),
    });
  };
  add("token_embd.weight", [vocabSize, d], 1);
  for (let i = 0; i < blockCount; i++) {
    add(`blk.${i}.attn_norm.weight`, [d], 0.1, 1);
    for (const [suffix, shape] of tinyBlockShapes()) {
      add(`blk.${i}.${suffix}.weight`, shape, suffix === "ffn_down" ? 0.15 : 0.25);
      if (architecture === "qwen2" && (suffix === "attn_q" || suffix === "attn_k" || suffix === "attn_v")) {
        add(`blk.${i}.${suffix}.bias`, [shape[0]], 0.2);
      }
    }
    add(`blk.${i}.ffn_norm.weight`, [d], 0.1, 1);
  }
  add("output_norm.weight", [d], 0.1, 1);
  if (!tied) add("output.weight", [vocabSize, d], 0.3);
  return weights;
}

function mergeDeltas(weights: Map<string, TinyWeight>, deltas: readonly TinyWeightDelta[]): void {
  for (const delta of deltas) {
    const weight = weights.get(delta.tensor);
    if (weight === undefined) throw new Error(`merged delta for "${delta.tensor}": the tiny model has no such tensor`);
    if (weight.values.length !== delta.values.length) {
      throw new Error(`merged delta for "${delta.tensor}" has ${delta.values.length} values, the weight ${weight.values.length}`);
    }
    const merged = new Float32Array(weight.values.length);
    for (let i = 0; i < merged.length; i++) merged[i] = (weight.values[i] ?? 0) + (delta.values[i] ?? 0);
    weights.set(delta.tensor, { shape: weight.shape, values: merged });
  }
}

/** The tiny model `options` describe, in PyTorch layout: the same for the GGUF and the Hugging Face writer (tiny-hf-model.ts). */
export function tinyModel(options: TinyLlamaOptions = {}): Omit<TinyModelInfo, "path"> {
  const architecture = options.architecture ?? "llama";
  const vocabulary = tinyVocabulary(options.fim ?? false);
  const weights = tinyWeights(options.seed ?? 1, architecture, vocabulary.tokens.length, options.tiedEmbeddings ?? false);
  mergeDeltas(weights, options.mergedDeltas ?? []);
  return { architecture, vocabulary, weights };
}

/**
 * Writes the tiny model and returns what it holds. Tensors are F32; dims are the PyTorch shape
 * reversed; for llama, q and k rows are permuted as convert_hf_to_gguf does (see
 * rope-permutation.ts), so `weights` are what a Hugging Face checkpoint of this model would hold.
 */
export async function writeTinyLlamaGguf(path: string, options: TinyLlamaOptions = {}): Promise<TinyModelInfo> {
  const { architecture, vocabulary, weights } = tinyModel(options);

  const { headCount, headCountKv } = TINY_MODEL;
  const tensors: GgufTensorToWrite[] = [...weights].map(([name, weight]) => {
    let values = weight.values;
    if (architecture === "llama" && /\.attn_[qk]\.weight$/.test(name)) {
      const [rows = 0, cols = 0] = weight.shape;
      values = permuteRopeRows(values, rows, cols, name.includes(".attn_q.") ? headCount : headCountKv);
    }
    return { name, dims: [...weight.shape].reverse(), type: GgmlType.F32, values };
  });

  const metadata = tinyModelMetadata(architecture, vocabulary, options.contextLength ?? 2048, options.addBosToken ?? true);
  await writeGgufFile(path, { metadata, tensors });
  return { path, architecture, vocabulary, weights };
}

function tinyModelMetadata(
  arch: TinyArchitecture,
  vocabulary: TinyVocabulary,
  contextLength: number,
  addBosToken: boolean,
): Array<[string, GgufMetadataValue]> {
  const m = TINY_MODEL;
  const entries: Array<[string, GgufMetadataValue]> = [
    ["general.architecture", ggufValue.str(arch)],
    ["general.name", ggufValue.str(`tiny-${arch}`)],
    ["general.file_type", ggufValue.u32(0)],
    [`${arch}.context_length`, ggufValue.u32(contextLength)],
    [`${arch}.embedding_length`, ggufValue.u32(m.embeddingLength)],
    [`${arch}.block_count`, ggufValue.u32(m.blockCount)],
    [`${arch}.feed_forward_length`, ggufValue.u32(m.feedForwardLength)],
    [`${arch}.attention.head_count`, ggufValue.u32(m.headCount)],
    [`${arch}.attention.head_count_kv`, ggufValue.u32(m.headCountKv)],
    [`${arch}.attention.layer_norm_rms_epsilon`, ggufValue.f32(m.rmsEpsilon)],
    [`${arch}.rope.freq_base`, ggufValue.f32(m.ropeFreqBase)],
    [`${arch}.rope.dimension_count`, ggufValue.u32(m.headDim)],
    ["tokenizer.ggml.model", ggufValue.str("llama")],
    ["tokenizer.ggml.tokens", ggufValue.array(GgufValueType.STRING, vocabulary.tokens)],
    ["tokenizer.ggml.scores", ggufValue.array(GgufValueType.FLOAT32, vocabulary.scores)],
    ["tokenizer.ggml.token_type", ggufValue.array(GgufValueType.INT32, vocabulary.types)],
    ["tokenizer.ggml.unknown_token_id", ggufValue.u32(0)],
    ["tokenizer.ggml.bos_token_id", ggufValue.u32(1)],
    ["tokenizer.ggml.eos_token_id", ggufValue.u32(2)],
    ["tokenizer.ggml.eot_token_id", ggufValue.u32(4)],
    ["tokenizer.ggml.add_bos_token", ggufValue.bool(addBosToken)],
    ["tokenizer.ggml.add_eos_token", ggufValue.bool(false)],
    ["tokenizer.chat_template", ggufValue.str(CHATML_TEMPLATE)],
  ];
  if (vocabulary.fim !== undefined) {
    entries.push(
      ["tokenizer.ggml.fim_pre_token_id", ggufValue.u32(vocabulary.fim.prefix)],
      ["tokenizer.ggml.fim_suf_token_id", ggufValue.u32(vocabulary.fim.suffix)],
      ["tokenizer.ggml.fim_mid_token_id", ggufValue.u32(vocabulary.fim.middle)],
    );
  }
  return entries;
}

/** Broken adapters for validation tests; llama.cpp must never see them. */
export type TinyLoraDefect =
  | "wrong-shape"
  | "wrong-architecture"
  | "alpha-float64"
  | "alpha-uint32"
  | "missing-alpha"
  | "missing-lora-b"
  | "mismatched-rank"
  | "not-an-adapter";

export interface TinyLoraOptions {
  /** PRNG seed of the A and B values; default 2. */
  seed?: number;
  /** The base model's architecture; default "llama". */
  architecture?: TinyArchitecture;
  /** Rank r; default 4. */
  rank?: number;
  /** `adapter.lora.alpha`; default 8 (scale alpha/r = 2). */
  alpha?: number;
  /** GGUF name suffixes of the targeted weights; default all seven linear weights of each block. */
  targets?: readonly string[];
  /** Amplitude of the uniform A and B values; default 0.3 (changes the greedy output visibly). */
  amplitude?: number;
  /** Write a broken adapter of this kind instead of a valid one. */
  defect?: TinyLoraDefect;
}

export interface TinyLoraInfo {
  readonly path: string;
  readonly rank: number;
  readonly alpha: number;
  /** lora_a (r × in) and lora_b (out × r) by base tensor name, in PyTorch layout. */
  readonly pairs: ReadonlyMap<string, { readonly a: Float32Array; readonly b: Float32Array; readonly out: number; readonly in: number }>;
}

/**
 * Writes a GGUF LoRA adapter for the tiny model: general.type=adapter, adapter.type=lora,
 * adapter.lora.alpha FLOAT32, `blk.N.<weight>.weight.lora_a` with dims [in, r] and `.lora_b`
 * with dims [r, out] (PEFT's A (r, in) and B (out, r) reversed). With `defect` it writes the
 * named kind of broken adapter.
 */
export async function writeTinyLoraGguf(path: string, options: TinyLoraOptions = {}): Promise<TinyLoraInfo> {
  const rank = options.rank ?? 4;
  const alpha = options.alpha ?? 8;
  const architecture = options.architecture ?? "llama";
  const amplitude = options.amplitude ?? 0.3;
  const defect = options.defect;
  const random = seededRandom(options.seed ?? 2);
  const shapes = tinyBlockShapes();
  const targets = options.targets ?? [...shapes.keys()];

  const pairs = new Map<string, { a: Float32Array; b: Float32Array; out: number; in: number }>();
  const tensors: GgufTensorToWrite[] = [];
  for (let layer = 0; layer < TINY_MODEL.blockCount; layer++) {
    for (const target of targets) {
      const shape = shapes.get(target);
      if (shape === undefined) throw new Error(`unknown LoRA target "${target}"; use one of ${[...shapes.keys()].join(", ")}`);
      const [out, inputs] = shape;
      const base = `blk.${layer}.${target}.weight`;
      const first = layer === 0 && target === targets[0];
      // The defects change the first pair only: one bad pair is enough to make llama.cpp fail.
      const aIn = first && defect === "wrong-shape" ? inputs + 16 : inputs;
      const bRank = first && defect === "mismatched-rank" ? rank + 1 : rank;
      const a = uniformValues(random, rank * aIn, amplitude);
      const b = uniformValues(random, out * bRank, amplitude);
      pairs.set(base, { a, b, out, in: aIn });
      tensors.push({ name: `${base}.lora_a`, dims: [aIn, rank], type: GgmlType.F32, values: a });
      if (!(first && defect === "missing-lora-b"))
        tensors.push({ name: `${base}.lora_b`, dims: [bRank, out], type: GgmlType.F32, values: b });
    }
  }

  const metadata: Array<[string, GgufMetadataValue]> = [
    [
      "general.architecture",
      ggufValue.str(defect === "wrong-architecture" ? (architecture === "llama" ? "qwen2" : "llama") : architecture),
    ],
    ["general.type", ggufValue.str(defect === "not-an-adapter" ? "model" : "adapter")],
    ["general.name", ggufValue.str(`tiny-${architecture}-lora`)],
    ["adapter.type", ggufValue.str("lora")],
  ];
  if (defect === "alpha-float64") metadata.push(["adapter.lora.alpha", ggufValue.f64(alpha)]);
  else if (defect === "alpha-uint32") metadata.push(["adapter.lora.alpha", ggufValue.u32(Math.round(alpha))]);
  else if (defect !== "missing-alpha") metadata.push(["adapter.lora.alpha", ggufValue.f32(alpha)]);

  await writeGgufFile(path, { metadata, tensors });
  return { path, rank, alpha, pairs };
}
