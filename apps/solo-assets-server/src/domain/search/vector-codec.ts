/**
 * Compact forms of embedding vectors for the in-memory search index (search-index.ts):
 *
 * - A **sign signature** (SimHash, Charikar 2002): the signs of a random rotation of the vector,
 *   one bit each (up to 1,024 bits). The share of differing bits between two signatures estimates the angle between
 *   the vectors (θ/π), whatever the vectors' distribution — sparse vectors of the built-in
 *   embedder included — because the rotation spreads every coordinate over all of them. The
 *   rotation is the fast structured one (a seeded random ±1 diagonal, then the Walsh–Hadamard
 *   transform, O(d log d)), over the dimension padded to a power of two.
 * - An **int8 copy** with a per-vector scale (max |x| / 127) and the exact norm, for the cosine
 *   of the short list the signatures pick: a quarter of the memory of FLOAT, and cosines within
 *   ~1e-2 of the exact ones.
 *
 * Both are deterministic: the same vector gives the same bits and bytes in every process.
 */
import { seedFrom, seededRandom } from "@local-mcp/core";

/**
 * 1,024 bits estimate an angle to about ±0.016 π — enough to keep the true nearest functions among
 * the short list the int8 cosine re-orders (512 bits lost 3% of the top 20 in search-index.test.ts).
 */
const MAX_BITS = 1024;

export class VectorCodec {
  readonly dimension: number;
  /** The dimension padded to a power of two (the rotation's size). */
  readonly padded: number;
  /** Signature bits: the signs of the first `bits` rotated coordinates (at most 1,024). */
  readonly bits: number;
  /** Signature length in 32-bit words. */
  readonly words: number;
  private readonly signs: Float32Array;
  private readonly scratch: Float32Array;

  constructor(dimension: number) {
    if (!Number.isInteger(dimension) || dimension < 1) throw new Error(`invalid vector dimension ${dimension}`);
    this.dimension = dimension;
    this.padded = Math.max(32, 2 ** Math.ceil(Math.log2(dimension)));
    this.bits = Math.min(this.padded, MAX_BITS);
    this.words = this.bits / 32;
    const random = seededRandom(seedFrom(`solo-assets signature ${this.padded}`));
    this.signs = Float32Array.from({ length: this.padded }, () => (random() < 0.5 ? -1 : 1));
    this.scratch = new Float32Array(this.padded);
  }

  /** Writes the sign signature of `vector` into `out` at word `offset`. */
  signature(vector: Float32Array, out: Uint32Array, offset = 0): void {
    const x = this.scratch;
    x.fill(0);
    for (let i = 0; i < this.dimension; i++) x[i] = (vector[i] as number) * (this.signs[i] as number);
    walshHadamard(x);
    for (let w = 0; w < this.words; w++) {
      let word = 0;
      for (let b = 0; b < 32; b++) if ((x[w * 32 + b] as number) > 0) word |= 1 << b;
      out[offset + w] = word >>> 0;
    }
  }

  /** Writes the int8 copy of `vector` into `out` at `offset`; returns its scale and exact norm. */
  quantize(vector: Float32Array, out: Int8Array, offset = 0): { scale: number; norm: number } {
    let max = 0;
    let squares = 0;
    for (let i = 0; i < this.dimension; i++) {
      const value = vector[i] as number;
      max = Math.max(max, Math.abs(value));
      squares += value * value;
    }
    const scale = max > 0 ? max / 127 : 1;
    for (let i = 0; i < this.dimension; i++) out[offset + i] = Math.round((vector[i] as number) / scale);
    return { scale, norm: Math.sqrt(squares) };
  }
}

/** In-place unnormalised Walsh–Hadamard transform; the length must be a power of two. */
export function walshHadamard(x: Float32Array): void {
  for (let h = 1; h < x.length; h *= 2) {
    for (let i = 0; i < x.length; i += h * 2) {
      for (let j = i; j < i + h; j++) {
        const a = x[j] as number;
        const b = x[j + h] as number;
        x[j] = a + b;
        x[j + h] = a - b;
      }
    }
  }
}

/** Number of set bits of a 32-bit integer. */
export function popcount32(value: number): number {
  let x = value - ((value >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Differing bits between the first `words` words of the signature at word `offset` of `all` and of `query`. */
export function hammingDistance(all: Uint32Array, offset: number, query: Uint32Array, words = query.length): number {
  let distance = 0;
  for (let w = 0; w < words; w++) distance += popcount32((all[offset + w] as number) ^ (query[w] as number));
  return distance;
}

/** Cosine between a float query (with its norm) and the int8 copy at `offset` (with its scale and norm). */
export function cosineInt8(query: Float32Array, queryNorm: number, all: Int8Array, offset: number, scale: number, norm: number): number {
  if (queryNorm === 0 || norm === 0) return 0;
  let dot = 0;
  for (let i = 0; i < query.length; i++) dot += (query[i] as number) * (all[offset + i] as number);
  return (dot * scale) / (queryNorm * norm);
}
