/**
 * The keyword posting lists of the search index: scores are the idf-weighted sums within the
 * scope, a changed or removed function's old terms stop counting at once, and compaction (after
 * many changes) keeps exactly the live entries.
 */
import { describe, expect, it } from "vitest";
import { TermPostings } from "../src/domain/search/term-postings.js";

function scores(postings: TermPostings, terms: number[], scope: number[], slots: number): Map<number, number> {
  const inScope = new Uint8Array(slots);
  for (const slot of scope) inScope[slot] = 1;
  const out = new Map<number, number>();
  postings.score(terms, inScope, scope.length, (slot, score) => out.set(slot, score));
  return out;
}

const idf = (total: number, df: number) => Math.log(1 + (total - df + 0.5) / (df + 0.5));

describe("term postings", () => {
  it("scores shared terms by idf within the scope, name terms twice", () => {
    const postings = new TermPostings();
    postings.ensureSlots(4);
    postings.set(0, [10, 11], [2, 1]);
    postings.set(1, [10], [1]);
    postings.set(2, [11, 12], [1, 1]);
    const all = scores(postings, [10, 11], [0, 1, 2], 4);
    expect(all.get(0)).toBeCloseTo(idf(3, 2) * 2 + idf(3, 2), 12);
    expect(all.get(1)).toBeCloseTo(idf(3, 2), 12);
    expect(all.get(2)).toBeCloseTo(idf(3, 2), 12);
    // Out of scope: neither scored nor counted in the document frequency.
    const some = scores(postings, [10, 11], [0, 2], 4);
    expect([...some.keys()].sort()).toEqual([0, 2]);
    expect(some.get(0)).toBeCloseTo(idf(2, 1) * 2 + idf(2, 2), 12);
  });

  it("forgets changed and removed terms at once, and compaction keeps exactly the live entries", () => {
    const postings = new TermPostings();
    postings.ensureSlots(2);
    postings.set(0, [1], [1]);
    postings.set(1, [1], [1]);
    postings.set(0, [2], [1]); // slot 0 no longer has term 1
    expect([...scores(postings, [1], [0, 1], 2).keys()]).toEqual([1]);
    postings.clear(1);
    expect(scores(postings, [1, 2], [0, 1], 2).size).toBe(1);
    // 70k changes leave 70k stale entries: more than the compaction threshold.
    for (let i = 0; i < 70_000; i++) postings.set(1, [3 + (i % 5)], [1]);
    const after = scores(postings, [1, 2, 3, 4, 5, 6, 7], [0, 1], 2);
    expect([...after.keys()].sort()).toEqual([0, 1]);
    expect(after.get(1)).toBeCloseTo(idf(2, 1), 12); // only its last term (3 + 69999 % 5 = 7), once
  });
});
