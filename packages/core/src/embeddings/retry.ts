import { abortableDelay } from "../guards/deadline.js";
import { abortError } from "./abort.js";

/** Bounded retries with exponential backoff and jitter. */
export interface RetryPolicy {
  /** Tries in all, the first included (>= 1). */
  attempts: number;
  /** The base delay before the first retry. */
  initialDelayMs: number;
  /** No single wait is longer than this, whatever the server asks for. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  attempts: 4,
  initialDelayMs: 500,
  maxDelayMs: 20_000,
});

/**
 * The wait before retry number `retry` (0 for the first): "equal jitter" — half of
 * min(max, initial × 2^retry) fixed, the other half random, so that clients that failed together
 * do not come back together, yet every wait still grows. A server's own hint (Gemini's
 * RetryInfo) raises the wait, capped at `maxDelayMs`.
 */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random, hintMs?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  return Math.round(Math.min(policy.maxDelayMs, Math.max(jittered, hintMs ?? 0)));
}

/** How a failed attempt should be handled. */
export type FailureVerdict = { retry: false; error: unknown } | { retry: true; error: unknown; hintMs?: number | undefined };

export interface RetryHooks {
  policy: RetryPolicy;
  signal?: AbortSignal | undefined;
  /** What is being done, for the cancellation message. */
  what: string;
  /** Classifies a failure; a retryable one is tried again while attempts remain. */
  classify: (error: unknown) => FailureVerdict;
  /** Called before each wait (for logs). */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** Called with the last retryable failure when attempts run out; returns what to throw. */
  exhausted: (error: unknown, attempts: number) => unknown;
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds, fails in a way that is not retryable, or the attempts run
 * out. The signal is honoured before each try and during each wait: an abort ends the loop at
 * once with `abortError`.
 */
export async function withRetry<T>(attempt: (attemptNumber: number) => Promise<T>, hooks: RetryHooks): Promise<T> {
  const attempts = Math.max(1, Math.floor(hooks.policy.attempts));
  for (let n = 1; ; n++) {
    if (hooks.signal?.aborted) throw abortError(hooks.signal, hooks.what);
    let verdict: FailureVerdict;
    try {
      return await attempt(n);
    } catch (error) {
      if (hooks.signal?.aborted) throw abortError(hooks.signal, hooks.what);
      verdict = hooks.classify(error);
    }
    if (!verdict.retry) throw verdict.error;
    if (n >= attempts) throw hooks.exhausted(verdict.error, n);
    const delayMs = backoffDelayMs(hooks.policy, n - 1, hooks.random, verdict.hintMs);
    hooks.onRetry?.({ attempt: n, delayMs, error: verdict.error });
    try {
      await abortableDelay(delayMs, hooks.signal);
    } catch (error) {
      if (hooks.signal?.aborted) throw abortError(hooks.signal, hooks.what);
      throw error;
    }
  }
}
