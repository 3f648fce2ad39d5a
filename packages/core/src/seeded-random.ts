import { createHash } from "node:crypto";

/** mulberry32: a small, fast, seedable PRNG with uniform output in [0, 1). Deterministic data needs it. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from text: the first 4 bytes of its SHA-256. */
export function seedFrom(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32LE(0);
}
