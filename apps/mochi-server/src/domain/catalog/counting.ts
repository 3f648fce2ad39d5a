import { compareCodePoints } from "../files/repo-walker.js";

/** Counts of keys; iteration order is insertion order, so sort before output. */
export class Counter {
  private readonly counts = new Map<string, number>();

  add(key: string, by = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + by);
  }

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  get total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }

  get size(): number {
    return this.counts.size;
  }

  /** Entries by count (highest first), ties by key in code-point order: deterministic. */
  top(limit = Number.POSITIVE_INFINITY): Array<[string, number]> {
    return [...this.counts.entries()].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0])).slice(0, limit);
  }

  toRecord(): Record<string, number> {
    return Object.fromEntries(this.top());
  }
}

/** `part` of `total` as a whole percentage, e.g. "95%". */
export function percent(part: number, total: number): string {
  return total === 0 ? "0%" : `${Math.round((100 * part) / total)}%`;
}

/** A ratio rounded to 3 decimals (stable in JSON). */
export function ratio(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((1000 * part) / total) / 1000;
}

/** Nearest-rank percentile of numbers (p in [0,100]); 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/** "a (3), b (2)" */
export function formatTop(entries: ReadonlyArray<readonly [string, number]>): string {
  return entries.map(([key, n]) => `${key} (${n})`).join(", ");
}
