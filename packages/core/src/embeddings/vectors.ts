import { ToolError } from "../errors.js";

/**
 * Small vector arithmetic for embeddings. Sums run in float64 and results are stored as float32,
 * the storage type of every vector here.
 */

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new RangeError(`Vectors differ in length: ${a.length} and ${b.length}.`);
  }
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

export function l2Norm(vector: ArrayLike<number>): number {
  return Math.sqrt(dot(vector, vector));
}

/**
 * A new Float32Array with the direction of `vector` and L2 norm 1. A zero vector (or one with a
 * non-finite entry) has no direction: the result is all zeros, so callers that promise unit
 * vectors must check `isUnitVector` or guarantee a non-zero input.
 */
export function l2Normalise(vector: ArrayLike<number>): Float32Array {
  const out = new Float32Array(vector.length);
  const norm = l2Norm(vector);
  if (!(norm > 0) || !Number.isFinite(norm)) return out;
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] as number) / norm;
  return out;
}

export function isUnitVector(vector: ArrayLike<number>, tolerance = 1e-4): boolean {
  return Math.abs(l2Norm(vector) - 1) <= tolerance;
}

/** Cosine similarity in [-1, 1]; 0 when either vector is zero. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const denominator = l2Norm(a) * l2Norm(b);
  if (!(denominator > 0)) return 0;
  return Math.max(-1, Math.min(1, dot(a, b) / denominator));
}

export interface ScoredIndex {
  index: number;
  score: number;
}

/**
 * The `k` candidates most similar to `query` by cosine, best first; ties keep candidate order.
 * Brute force: what a benchmark or a small library needs without a vector index.
 */
export function topK(query: ArrayLike<number>, candidates: readonly ArrayLike<number>[], k: number): ScoredIndex[] {
  const scored = candidates.map((candidate, index) => ({ index, score: cosine(query, candidate) }));
  scored.sort((x, y) => y.score - x.score || x.index - y.index);
  return scored.slice(0, Math.max(0, k));
}

/** Which embedding space a vector lives in. Vectors compare only within one space. */
export interface EmbeddingSpace {
  model: string;
  dimension: number;
}

/** A vector as it is stored: with the model name and dimension that made it. */
export interface StoredVector extends EmbeddingSpace {
  vector: Float32Array;
}

/** Records `vector` with the space of the embedder that produced it. */
export function toStoredVector(space: EmbeddingSpace, vector: Float32Array): StoredVector {
  if (vector.length !== space.dimension) {
    throw new RangeError(`A ${space.model} vector must have ${space.dimension} entries, not ${vector.length}.`);
  }
  return { model: space.model, dimension: space.dimension, vector };
}

export function sameEmbeddingSpace(a: EmbeddingSpace, b: EmbeddingSpace): boolean {
  return a.model === b.model && a.dimension === b.dimension;
}

/**
 * Refuses to compare a stored vector with vectors of another space, e.g. a library indexed with
 * Gemini searched with the built-in embedder, which would give meaningless scores.
 */
export function assertSameEmbeddingSpace(stored: EmbeddingSpace, current: EmbeddingSpace): void {
  if (sameEmbeddingSpace(stored, current)) return;
  throw new ToolError(
    "INVALID_INPUT",
    `Stored vectors were made by ${stored.model} (${stored.dimension} dimensions) but the current embedder is ` +
      `${current.model} (${current.dimension} dimensions); they cannot be compared.`,
    {
      suggestion: "Re-embed the stored items with the current embedder, or configure the embedder that made them.",
      details: { stored, current },
    },
  );
}
