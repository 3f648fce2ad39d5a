import { describe, expect, it } from "vitest";
import {
  assertSameEmbeddingSpace,
  cosine,
  dot,
  isUnitVector,
  l2Norm,
  l2Normalise,
  sameEmbeddingSpace,
  toStoredVector,
  topK,
} from "../../src/embeddings/index.js";

describe("vector arithmetic", () => {
  it("normalises to unit length and keeps direction", () => {
    const v = l2Normalise([3, 4]);
    expect(v).toBeInstanceOf(Float32Array);
    expect(Array.from(v)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(isUnitVector(v)).toBe(true);
    expect(l2Norm([3, 4])).toBe(5);
    expect(dot([1, 2, 3], [4, 5, 6])).toBe(32);
  });

  it("turns a zero or non-finite vector into zeros instead of NaN", () => {
    expect(Array.from(l2Normalise([0, 0, 0]))).toEqual([0, 0, 0]);
    expect(Array.from(l2Normalise([1, Number.NaN]))).toEqual([0, 0]);
    expect(isUnitVector(l2Normalise([0, 0]))).toBe(false);
  });

  it("computes cosine independent of scale, 0 for a zero vector, and refuses mismatched lengths", () => {
    expect(cosine([1, 0], [5, 0])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [0, 2])).toBe(0);
    expect(cosine([1, 1], [-1, -1])).toBeCloseTo(-1, 12);
    expect(cosine([0, 0], [1, 1])).toBe(0);
    expect(() => cosine([1, 2], [1, 2, 3])).toThrow(RangeError);
  });

  it("ranks candidates best first, ties in candidate order", () => {
    const ranked = topK(
      [1, 0],
      [
        [0, 1],
        [1, 0],
        [2, 0],
        [1, 1],
      ],
      3,
    );
    expect(ranked.map((r) => r.index)).toEqual([1, 2, 3]);
    expect(ranked[2]!.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(topK([1, 0], [[1, 0]], 0)).toEqual([]);
  });
});

describe("stored vectors record their embedding space", () => {
  const space = { model: "local-hash-v1-4", dimension: 4 };

  it("records model and dimension with the vector, and refuses a vector of the wrong length", () => {
    const vector = l2Normalise([1, 2, 3, 4]);
    expect(toStoredVector(space, vector)).toEqual({ model: "local-hash-v1-4", dimension: 4, vector });
    expect(() => toStoredVector(space, new Float32Array(3))).toThrow(/4 entries, not 3/);
  });

  it("compares spaces by model and dimension and explains a mismatch", () => {
    expect(sameEmbeddingSpace(space, { ...space })).toBe(true);
    expect(sameEmbeddingSpace(space, { ...space, dimension: 8 })).toBe(false);
    expect(sameEmbeddingSpace(space, { ...space, model: "gemini-embedding-001" })).toBe(false);
    expect(() => assertSameEmbeddingSpace(space, space)).not.toThrow();
    expect(() => assertSameEmbeddingSpace(space, { model: "gemini-embedding-001", dimension: 768 })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", message: expect.stringMatching(/local-hash-v1-4.*gemini-embedding-001/) }),
    );
  });
});
