import { ToolError } from "../errors.js";

interface Waiter<S> {
  resolve: (item: S) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The context sequences of an engine. A call takes a free sequence or waits, first come first
 * served, in a queue of at most `maxQueue` callers; one more is refused with RESOURCE_EXHAUSTED.
 * A waiter whose signal aborts leaves the queue with the signal's reason.
 */
export class SequencePool<S> {
  private readonly free: S[];
  private readonly queue: Waiter<S>[] = [];

  constructor(
    items: readonly S[],
    private readonly maxQueue: number,
  ) {
    this.free = [...items];
  }

  get available(): number {
    return this.free.length;
  }

  get waiting(): number {
    return this.queue.length;
  }

  acquire(signal?: AbortSignal): Promise<S> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const item = this.free.pop();
    if (item !== undefined) return Promise.resolve(item);
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new ToolError(
          "RESOURCE_EXHAUSTED",
          `The model is busy: all sequences are in use and ${this.queue.length} calls are already waiting.`,
          {
            suggestion: "Retry in a moment, or raise the number of sequences or the queue size.",
            details: { waiting: this.queue.length, maxQueue: this.maxQueue },
          },
        ),
      );
    }
    return new Promise<S>((resolve, reject) => {
      const waiter: Waiter<S> = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  release(item: S): void {
    const next = this.queue.shift();
    if (next) {
      next.signal?.removeEventListener("abort", next.onAbort);
      next.resolve(item);
    } else {
      this.free.push(item);
    }
  }

  /** Refuses every waiter (the engine is being disposed). */
  drain(reason: unknown): void {
    for (const waiter of this.queue.splice(0)) {
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.reject(reason);
    }
  }
}
