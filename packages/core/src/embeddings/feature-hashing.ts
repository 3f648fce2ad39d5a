/**
 * Signed feature hashing ("the hashing trick"): a feature string picks a bucket and a sign from
 * one 32-bit hash, so colliding features cancel on average instead of piling up.
 */

/** FNV-1a over UTF-16 code units, then murmur3's finaliser for well-mixed high and low bits. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Adds `value` to the feature's bucket of `target`, with the sign taken from the hash's top bit. */
export function addHashedFeature(target: Float64Array, feature: string, value: number): void {
  const h = hash32(feature);
  const bucket = h % target.length;
  target[bucket] = (target[bucket] as number) + (h & 0x80000000 ? -value : value);
}
