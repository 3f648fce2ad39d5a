/** Splits `items` into consecutive batches of at most `size`, keeping order. */
export function splitIntoBatches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`Batch size must be a positive integer; got ${size}.`);
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

/**
 * Runs `work` on every batch with at most `concurrency` in flight and returns the results in
 * batch order, whatever order they finish in. The first failure aborts the signal handed to the
 * other batches and is what rejects; an abort of `signal` reaches every batch.
 */
export async function runBatches<I, O>(
  batches: readonly I[],
  concurrency: number,
  signal: AbortSignal | undefined,
  work: (batch: I, index: number, signal: AbortSignal) => Promise<O>,
): Promise<O[]> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });

  const results = new Array<O>(batches.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < batches.length) {
      const index = next++;
      try {
        results[index] = await work(batches[index] as I, index, controller.signal);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          controller.abort(error);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, batches.length)) }, worker));
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (failure !== undefined) throw failure.error;
  return results;
}
