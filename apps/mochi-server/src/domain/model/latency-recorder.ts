const KEEP = 1_000;

export interface LatencySummary {
  count: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
}

/** Inference latencies per tool: the last 1,000 of each, summarised as nearest-rank p50/p95. */
export class LatencyRecorder {
  private readonly samples = new Map<string, number[]>();
  private readonly counts = new Map<string, number>();

  record(what: string, ms: number): void {
    const list = this.samples.get(what) ?? [];
    list.push(ms);
    if (list.length > KEEP) list.shift();
    this.samples.set(what, list);
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
  }

  summary(): Record<string, LatencySummary> {
    const out: Record<string, LatencySummary> = {};
    for (const [what, list] of [...this.samples.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const sorted = [...list].sort((a, b) => a - b);
      const at = (p: number) => round(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0);
      out[what] = { count: this.counts.get(what) ?? 0, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: round(sorted.at(-1) ?? 0) };
    }
    return out;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
