/**
 * The keyword half of the search index: for each term, the slots of the functions that have it
 * (a posting list), with the term's weight there — 2 when it is also in the name, else 1. A query
 * reads only the lists of its own terms, not every function's terms.
 *
 * Changing a function appends its new terms and leaves the old entries behind, stale: each slot
 * has a generation, an entry counts only while its generation is the slot's, and the lists are
 * compacted when stale entries outnumber live ones.
 */
export class TermPostings {
  private lists: PostingList[] = [];
  private generations = new Int32Array(0);
  private counts = new Int32Array(0);
  private live = 0;
  private stale = 0;
  private scores = new Float64Array(0);

  /** Makes room for slots below `count`. */
  ensureSlots(count: number): void {
    if (count <= this.generations.length) return;
    const size = Math.max(count, this.generations.length * 2, 64);
    const generations = new Int32Array(size);
    generations.set(this.generations);
    const counts = new Int32Array(size);
    counts.set(this.counts);
    this.generations = generations;
    this.counts = counts;
    this.scores = new Float64Array(size);
  }

  /** Sets a slot's terms (`termIds` distinct, `weights` alongside). */
  set(slot: number, termIds: readonly number[], weights: readonly number[]): void {
    this.clear(slot);
    const generation = this.generations[slot] as number;
    termIds.forEach((termId, i) => this.list(termId).push(slot, generation, weights[i] as number));
    this.counts[slot] = termIds.length;
    this.live += termIds.length;
  }

  /** Forgets a slot's terms (its entries turn stale). */
  clear(slot: number): void {
    const count = this.counts[slot] as number;
    this.generations[slot] = (this.generations[slot] as number) + 1;
    this.counts[slot] = 0;
    this.live -= count;
    this.stale += count;
    if (this.stale > Math.max(this.live, 65_536)) this.compact();
  }

  reset(): void {
    this.lists = [];
    this.counts.fill(0);
    this.generations.fill(0);
    this.live = 0;
    this.stale = 0;
  }

  /**
   * Calls `take(slot, score)` for each slot in scope (`inScope[slot] === 1`, `scopeSize` of them)
   * sharing a term with the query: the sum over shared terms of idf × weight, with BM25's idf
   * computed within the scope.
   */
  score(queryTermIds: readonly number[], inScope: Uint8Array, scopeSize: number, take: (slot: number, score: number) => void): void {
    const lists = queryTermIds.map((termId) => this.lists[termId]).filter((list): list is PostingList => list !== undefined);
    const scores = this.scores;
    const touched: number[] = [];
    for (const list of lists) {
      let documentFrequency = 0;
      list.forEachLive(this.generations, (slot) => {
        if (inScope[slot] === 1) documentFrequency += 1;
      });
      if (documentFrequency === 0) continue;
      const idf = Math.log(1 + (scopeSize - documentFrequency + 0.5) / (documentFrequency + 0.5));
      list.forEachLive(this.generations, (slot, weight) => {
        if (inScope[slot] !== 1) return;
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] as number) + idf * weight;
      });
    }
    for (const slot of touched) {
      take(slot, scores[slot] as number);
      scores[slot] = 0;
    }
  }

  /**
   * The live entries grouped by term, for a persisted index (index-snapshot.ts): term `t`'s
   * entries are `slots`/`weights` from `offsets[t]` to `offsets[t + 1]`.
   */
  exportLive(termCount: number): { offsets: Int32Array<ArrayBuffer>; slots: Int32Array<ArrayBuffer>; weights: Uint8Array<ArrayBuffer> } {
    const offsets = new Int32Array(termCount + 1);
    const slots = new Int32Array(this.live);
    const weights = new Uint8Array(this.live);
    let at = 0;
    for (let termId = 0; termId < termCount; termId++) {
      offsets[termId] = at;
      this.lists[termId]?.forEachLive(this.generations, (slot, weight) => {
        slots[at] = slot;
        weights[at] = weight;
        at += 1;
      });
    }
    offsets[termCount] = at;
    return { offsets, slots: slots.subarray(0, at), weights: weights.subarray(0, at) };
  }

  /** Loads what `exportLive` gave into empty postings (after `reset` and `ensureSlots`). */
  importLive(offsets: Int32Array, slots: Int32Array, weights: Uint8Array): void {
    // Right after `reset` every slot's generation is 0, so each list is its slice with zero generations.
    const counts = this.counts;
    for (let i = 0; i < slots.length; i++) counts[slots[i] as number] = (counts[slots[i] as number] as number) + 1;
    for (let termId = 0; termId + 1 < offsets.length; termId++) {
      const start = offsets[termId] as number;
      const end = offsets[termId + 1] as number;
      if (end === start) continue;
      this.lists[termId] = PostingList.of(slots.slice(start, end), weights.slice(start, end));
    }
    this.live += slots.length;
  }

  private list(termId: number): PostingList {
    let list = this.lists[termId];
    if (!list) {
      list = new PostingList();
      this.lists[termId] = list;
    }
    return list;
  }

  private compact(): void {
    for (const list of this.lists) list?.compact(this.generations);
    this.stale = 0;
  }
}

/** One term's entries: slot, the slot's generation when added, and the weight. */
class PostingList {
  private slots = new Int32Array(8);
  private generations = new Int32Array(8);
  private weights = new Uint8Array(8);
  private length = 0;

  /** A list of the given entries, all of generation 0. */
  static of(slots: Int32Array<ArrayBuffer>, weights: Uint8Array<ArrayBuffer>): PostingList {
    const list = new PostingList();
    list.slots = slots;
    list.weights = weights;
    list.generations = new Int32Array(slots.length);
    list.length = slots.length;
    return list;
  }

  push(slot: number, generation: number, weight: number): void {
    if (this.length === this.slots.length) this.resize(this.length * 2);
    this.slots[this.length] = slot;
    this.generations[this.length] = generation;
    this.weights[this.length] = weight;
    this.length += 1;
  }

  forEachLive(current: Int32Array, visit: (slot: number, weight: number) => void): void {
    const { slots, generations, weights } = this;
    for (let i = 0; i < this.length; i++) {
      const slot = slots[i] as number;
      if (generations[i] === current[slot]) visit(slot, weights[i] as number);
    }
  }

  /** Drops stale entries. */
  compact(current: Int32Array): void {
    let kept = 0;
    for (let i = 0; i < this.length; i++) {
      const slot = this.slots[i] as number;
      if (this.generations[i] !== current[slot]) continue;
      this.slots[kept] = slot;
      this.generations[kept] = this.generations[i] as number;
      this.weights[kept] = this.weights[i] as number;
      kept += 1;
    }
    this.length = kept;
    if (kept * 4 < this.slots.length && this.slots.length > 8) this.resize(Math.max(8, kept * 2));
  }

  private resize(size: number): void {
    const slots = new Int32Array(size);
    slots.set(this.slots.subarray(0, this.length));
    const generations = new Int32Array(size);
    generations.set(this.generations.subarray(0, this.length));
    const weights = new Uint8Array(size);
    weights.set(this.weights.subarray(0, this.length));
    this.slots = slots;
    this.generations = generations;
    this.weights = weights;
  }
}
