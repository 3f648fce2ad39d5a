import { seedFrom, seededRandom } from "@local-mcp/core";
import { distance } from "fastest-levenshtein";

/** A completion and the expected text compare without trailing whitespace (a line's newline, a block's last blank). */
export function comparable(text: string): string {
  return text.trimEnd();
}

/** Whether the completion is the expected text (trailing whitespace aside). */
export function exactMatch(completion: string, expected: string): boolean {
  return comparable(completion) === comparable(expected);
}

/** 1 − Levenshtein distance / the longer length, in [0, 1] (trailing whitespace aside); two empty texts are 1. */
export function similarity(completion: string, expected: string): number {
  const a = comparable(completion);
  const b = comparable(expected);
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - distance(a, b) / longer;
}

/** A mean difference and its bootstrap interval. */
export interface Interval {
  /** The observed (weighted) mean of treatment − control. */
  mean: number;
  low: number;
  high: number;
}

export interface BootstrapOptions {
  seed: number;
  /** Resamples (default 2,000). */
  resamples?: number;
  /** Coverage of the interval (default 0.95). */
  confidence?: number;
  /** Weight of each pair (default 1 each): cross-entropy pairs weigh their token counts. */
  weights?: readonly number[];
}

/**
 * The paired bootstrap percentile interval of the lift, treatment − control: the pairs (the same
 * case under both models) are resampled with replacement, the weighted mean difference taken
 * each time, and the interval is the (1 − confidence)/2 and (1 + confidence)/2 quantiles of those
 * means. Deterministic for a seed. Fewer than one pair gives NaN throughout.
 */
export function pairedBootstrap(treatment: readonly number[], control: readonly number[], options: BootstrapOptions): Interval {
  if (treatment.length !== control.length) throw new Error(`paired samples differ in length: ${treatment.length} and ${control.length}`);
  const n = treatment.length;
  if (n === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const weights = options.weights ?? treatment.map(() => 1);
  const diffs = treatment.map((t, i) => t - (control[i] as number));
  const meanOf = (pick: (k: number) => number): number => {
    let sum = 0;
    let weight = 0;
    for (let k = 0; k < n; k++) {
      const i = pick(k);
      const w = weights[i] as number;
      sum += w * (diffs[i] as number);
      weight += w;
    }
    return weight === 0 ? 0 : sum / weight;
  };
  const resamples = options.resamples ?? 2_000;
  const confidence = options.confidence ?? 0.95;
  const random = seededRandom(seedFrom(`${options.seed}:bootstrap`));
  const means = Array.from({ length: resamples }, () => meanOf(() => Math.floor(random() * n))).sort((a, b) => a - b);
  return { mean: meanOf((k) => k), low: quantile(means, (1 - confidence) / 2), high: quantile(means, (1 + confidence) / 2) };
}

/** The q-quantile of sorted values, interpolated between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  const at = q * (sorted.length - 1);
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  const lo = sorted[below] as number;
  return lo + ((sorted[above] as number) - lo) * (at - below);
}
