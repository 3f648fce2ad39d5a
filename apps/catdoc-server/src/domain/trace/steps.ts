/**
 * Trace searches run in steps: each is a generator that yields, every so often, how much work it
 * has done, and returns its result. `runToEnd` runs one at once (the CLI, the dashboard, the
 * benchmark); `runInSteps` lets the event loop run between slices of about `sliceMs`, so a
 * client's cancellation and the call's deadline are seen while a long trace is still going
 * (a synchronous loop would block both), and stops the search at the next slice once the signal
 * has aborted (L-response-time).
 */

/** A search in steps: yields its work done so far (a count that only grows), returns the result. */
export type TraceSteps<T> = Generator<number, T, void>;

export function runToEnd<T>(steps: TraceSteps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

export interface RunInStepsOptions {
  /** Stops the search (rejecting with the signal's reason) at the next slice after it aborts. */
  signal?: AbortSignal | undefined;
  /** Called between slices with the work done so far. */
  onProgress?: ((work: number) => void) | undefined;
  /** Longest run of work between two turns of the event loop (default 20 ms). */
  sliceMs?: number;
}

export async function runInSteps<T>(steps: TraceSteps<T>, options: RunInStepsOptions = {}): Promise<T> {
  const { signal, onProgress, sliceMs = 20 } = options;
  signal?.throwIfAborted();
  let sliceStarted = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    if (performance.now() - sliceStarted < sliceMs) continue;
    onProgress?.(next.value);
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted === true) throw signal.reason;
    sliceStarted = performance.now();
  }
}
