/** Latency percentiles and the per-server tallies of a run. */
import { FAILURE_KINDS, type FailureKind } from "./checks.js";

/** The p-th percentile (0–100) of the values, nearest-rank; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

export interface Tally {
  calls: number;
  ok: number;
  toolErrors: number;
  protocolErrors: number;
  failedCalls: number;
  /** Calls per failure kind (a call can count under several). */
  failures: Record<FailureKind, number>;
  /** Tool error codes and JSON-RPC codes seen, with counts. */
  codes: Record<string, number>;
  /** Calls per generation mode. */
  modes: Record<string, number>;
  /** Calls and successful calls per tool. */
  tools: Record<string, { calls: number; ok: number }>;
  latencies: number[];
}

export function emptyTally(): Tally {
  return {
    calls: 0,
    ok: 0,
    toolErrors: 0,
    protocolErrors: 0,
    failedCalls: 0,
    failures: Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, 0])) as Record<FailureKind, number>,
    codes: {},
    modes: {},
    tools: {},
    latencies: [],
  };
}
