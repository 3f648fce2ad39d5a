import { ToolError } from "../errors.js";
import { throwIfAborted } from "./abort.js";
import { checkEmbedInput } from "./embed-input.js";
import type { EmbedOptions, Embedder } from "./embedder.js";
import { addHashedFeature } from "./feature-hashing.js";
import { textFeatures } from "./text-features.js";
import type { FeatureBlock, FeatureBlocks } from "./text-features.js";

/**
 * LocalEmbedder: the built-in, offline, deterministic embedder (no model, no download). The
 * embedded default; quality is far below a neural model, but paraphrases and same-topic texts
 * rank above unrelated ones.
 *
 * Scheme (version 1):
 * 1. Text: the first 100,000 characters, NFKC, possessive "'s" and apostrophes dropped.
 * 2. Tokens: runs of letters/digits; identifiers split on "_", "-" and camelCase
 *    ("parseDateString" -> parse, date, string; "HTTPServer" -> http, server); lowercase;
 *    English stopwords and single letters dropped. A compound identifier of 2-4 parts also
 *    gives its joined form ("e-mail" -> "email") at half weight.
 * 3. Each word gets a light English stem (english-stemmer.ts) and a weight that stands in for
 *    IDF without a corpus: log(1 + length) / log(7) clamped to [0.4, 1.25]; numbers 0.4; weak
 *    code words ("function", "return", "value"...) 0.3; words of scripts without spaces 1.
 * 4. Four feature blocks:
 *    - words:    the stem;
 *    - concepts: the groups of a small fixed thesaurus the stem belongs to (word-groups.ts), so
 *                "remove"/"delete" or "folder"/"directory" meet;
 *    - chars:    character 3- and 4-grams of the word with boundary marks ("<date>": "<da",
 *                "dat", ..., "ate>"), 1- and 2-grams for Han/kana/Hangul/Thai runs; each word's
 *                weight is spread over its n-grams (÷ √count), so morphology and typos
 *                ("config"/"configuration") still overlap;
 *    - bigrams:  adjacent content stems, weight √(w₁·w₂), for word order and phrases.
 *    Within a block a feature's value is its mean weight × (1 + ln count) (sublinear tf).
 * 5. Each block is signed-hashed (FNV-1a + murmur finaliser; bucket = hash mod dimension, sign
 *    = top bit) into its own vector, L2-normalised, scaled by the block weight below and summed;
 *    the sum is L2-normalised. A text with no features (empty, punctuation, stopwords only) maps
 *    to one fixed unit vector spread over many buckets (64 hashed sentinel features), nearly
 *    orthogonal to every real text.
 * Nothing depends on the other texts embedded, so stored vectors stay valid as a library grows;
 * any change to the scheme must change `LOCAL_EMBEDDER_VERSION` (and so the model name).
 */
export const LOCAL_EMBEDDER_VERSION = 1;
export const LOCAL_EMBEDDER_DEFAULT_DIMENSION = 512;

/** Relative weight of each feature block in the final vector (part of the version). */
export const LOCAL_BLOCK_WEIGHTS: Readonly<Record<keyof FeatureBlocks, number>> = Object.freeze({
  words: 1,
  concepts: 0.6,
  chars: 0.45,
  bigrams: 0.2,
});

/** Texts embedded between two yields to the event loop (and abort checks). */
const TEXTS_PER_SLICE = 64;
/** A text with no features gets this many fixed features: a dense, fixed, unit vector. */
const NO_FEATURE_SPREAD = 64;

export interface LocalEmbedderOptions {
  /** Vector length; default 512. Part of the model name. */
  dimension?: number;
}

export class LocalEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;

  constructor(options: LocalEmbedderOptions = {}) {
    const dimension = options.dimension ?? LOCAL_EMBEDDER_DEFAULT_DIMENSION;
    if (!Number.isInteger(dimension) || dimension < 16 || dimension > 65_536) {
      throw new ToolError("INVALID_INPUT", `LocalEmbedder dimension must be an integer in [16, 65536]; got ${dimension}.`);
    }
    this.dimension = dimension;
    this.model = `local-hash-v${LOCAL_EMBEDDER_VERSION}-${dimension}`;
  }

  /** The task is ignored: this embedder is symmetric (queries and documents alike). */
  async embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    checkEmbedInput(texts, options);
    const what = `Embedding ${texts.length} texts with ${this.model}`;
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += TEXTS_PER_SLICE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      throwIfAborted(options.signal, what);
      for (const text of texts.slice(start, start + TEXTS_PER_SLICE)) vectors.push(this.embedOne(text));
    }
    return vectors;
  }

  /** One text, synchronously (for callers that embed a single short query). */
  embedOne(text: string): Float32Array {
    const blocks = textFeatures(text);
    const sum = new Float64Array(this.dimension);
    let any = false;
    for (const name of Object.keys(LOCAL_BLOCK_WEIGHTS) as (keyof FeatureBlocks)[]) {
      any = this.addBlock(sum, blocks[name], LOCAL_BLOCK_WEIGHTS[name]) || any;
    }
    if (!any) {
      for (let i = 0; i < NO_FEATURE_SPREAD; i++) addHashedFeature(sum, `\u2205${i}`, 1);
    }
    return normalised(sum);
  }

  private addBlock(sum: Float64Array, block: FeatureBlock, weight: number): boolean {
    if (block.size === 0) return false;
    const hashed = new Float64Array(this.dimension);
    for (const [feature, { sum: total, count }] of block) {
      addHashedFeature(hashed, feature, (total / count) * (1 + Math.log(count)));
    }
    let norm = 0;
    for (const value of hashed) norm += value * value;
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return false;
    for (let i = 0; i < hashed.length; i++) sum[i] = (sum[i] as number) + (weight * (hashed[i] as number)) / norm;
    return true;
  }
}

function normalised(values: Float64Array): Float32Array {
  let norm = 0;
  for (const value of values) norm += value * value;
  norm = Math.sqrt(norm);
  const out = new Float32Array(values.length);
  if (!(norm > 0)) {
    // Blocks that cancelled exactly (practically impossible); keep the unit-length promise.
    out[0] = 1;
    return out;
  }
  for (let i = 0; i < values.length; i++) out[i] = (values[i] as number) / norm;
  return out;
}
