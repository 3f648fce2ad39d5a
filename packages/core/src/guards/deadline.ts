import { ToolError } from "../errors.js";

export interface DeadlineOptions {
  /** How long the work may take. */
  timeoutMs: number;
  /** An outer signal (the client's cancellation); its abort aborts the work too. */
  signal?: AbortSignal | undefined;
  /** What is being done, for the TIMEOUT message. */
  what?: string;
}

/**
 * L-response-time. Runs `work` with an AbortSignal that fires at the deadline, and settles with
 * `TIMEOUT` at the deadline even if the work has not yet noticed. The work receives the signal
 * and is expected to stop (generation, subprocesses and queries take it), so nothing keeps
 * running after the caller has been answered.
 */
export async function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, options: DeadlineOptions): Promise<T> {
  const controller = new AbortController();
  const what = options.what ?? "The operation";
  let timer: NodeJS.Timeout | undefined;
  let onOuterAbort: (() => void) | undefined;

  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      // Made only when it happens: an error's stack costs every call that finishes in time.
      const timeout = new ToolError("TIMEOUT", `${what} did not finish within ${options.timeoutMs} ms and was stopped.`, {
        details: { timeoutMs: options.timeoutMs },
      });
      controller.abort(timeout);
      reject(timeout);
    }, options.timeoutMs);
    const outer = options.signal;
    if (outer) {
      onOuterAbort = () => {
        const cancelled = new ToolError("TIMEOUT", `${what} was cancelled by the client.`, {
          details: { cancelled: true },
        });
        controller.abort(cancelled);
        reject(cancelled);
      };
      if (outer.aborted) onOuterAbort();
      else outer.addEventListener("abort", onOuterAbort, { once: true });
    }
  });
  // The work may reject after we have already answered TIMEOUT: keep that from going unhandled.
  const running = Promise.resolve().then(() => work(controller.signal));
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
    if (onOuterAbort) options.signal?.removeEventListener("abort", onOuterAbort);
    expired.catch(() => undefined);
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
