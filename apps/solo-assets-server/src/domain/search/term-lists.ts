/**
 * Each indexed function's keyword terms (as term ids) with their weights — 2 for a term that is
 * also in the name, else 1 — in one flat array, so the keyword ranking reads 100k functions'
 * terms as one sequential scan instead of chasing 100k small arrays. A changed function's new
 * list is appended and its old one becomes garbage; the array is compacted when garbage is more
 * than half of it.
 */
export class TermLists {
  private data = new Int32Array(1024);
  private weights = new Uint8Array(1024);
  private starts = new Int32Array(0);
  private lengths = new Int32Array(0);
  private end = 0;
  private live = 0;

  /** Makes room for slots below `count`. */
  ensureSlots(count: number): void {
    if (count <= this.starts.length) return;
    const size = Math.max(count, this.starts.length * 2, 64);
    const starts = new Int32Array(size);
    starts.set(this.starts);
    const lengths = new Int32Array(size);
    lengths.set(this.lengths);
    this.starts = starts;
    this.lengths = lengths;
  }

  /** Sets a slot's terms (`ids` distinct, `weights` alongside). */
  set(slot: number, ids: readonly number[], weights: readonly number[]): void {
    this.clear(slot);
    if (this.end + ids.length > this.data.length) this.grow(ids.length);
    this.starts[slot] = this.end;
    this.lengths[slot] = ids.length;
    for (let i = 0; i < ids.length; i++) {
      this.data[this.end + i] = ids[i] as number;
      this.weights[this.end + i] = weights[i] as number;
    }
    this.end += ids.length;
    this.live += ids.length;
  }

  clear(slot: number): void {
    this.live -= this.lengths[slot] ?? 0;
    this.lengths[slot] = 0;
  }

  reset(): void {
    this.lengths.fill(0);
    this.end = 0;
    this.live = 0;
  }

  /** Adds 1 to `counts[position[term]]` for each term of each slot in `scope` that the query has. */
  countDocuments(scope: Int32Array, position: Int32Array, counts: Float64Array): void {
    const { data, starts, lengths } = this;
    for (const slot of scope) {
      const start = starts[slot] as number;
      const stop = start + (lengths[slot] as number);
      for (let i = start; i < stop; i++) {
        const at = position[data[i] as number] as number;
        if (at >= 0) counts[at] = (counts[at] as number) + 1;
      }
    }
  }

  /** Calls `take(slot, score)` for each slot of `scope` sharing a term with the query: Σ idf × weight. */
  score(scope: Int32Array, position: Int32Array, idf: Float64Array, take: (slot: number, score: number) => void): void {
    const { data, weights, starts, lengths } = this;
    for (const slot of scope) {
      const start = starts[slot] as number;
      const stop = start + (lengths[slot] as number);
      let score = 0;
      for (let i = start; i < stop; i++) {
        const at = position[data[i] as number] as number;
        if (at >= 0) score += (idf[at] as number) * (weights[i] as number);
      }
      if (score > 0) take(slot, score);
    }
  }

  /** Room for `extra` more entries: compacts when half is garbage, else doubles. */
  private grow(extra: number): void {
    const needed = this.live + extra;
    const size = Math.max(1024, this.live * 2 >= this.end ? Math.max(this.data.length * 2, needed) : needed * 2);
    const data = new Int32Array(size);
    const weights = new Uint8Array(size);
    let end = 0;
    for (let slot = 0; slot < this.starts.length; slot++) {
      const length = this.lengths[slot] as number;
      if (length === 0) continue;
      const start = this.starts[slot] as number;
      data.set(this.data.subarray(start, start + length), end);
      weights.set(this.weights.subarray(start, start + length), end);
      this.starts[slot] = end;
      end += length;
    }
    this.data = data;
    this.weights = weights;
    this.end = end;
  }
}
