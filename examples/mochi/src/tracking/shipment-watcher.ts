import type { ShipmentState } from "./tracking-event.js";
import type { Tracker } from "./tracker.js";

export interface WatcherOptions {
  /** Time between two checks of a parcel (default 10 minutes). */
  intervalMs?: number;
  onError?: (trackingNumber: string, error: unknown) => void;
}

export type StateListener = (trackingNumber: string, state: ShipmentState) => void;

/**
 * Checks parcels on an interval and calls the listener when a parcel's state changes. Stops
 * watching a parcel once it is delivered; `dispose()` stops everything.
 */
export class ShipmentWatcher {
  private readonly controller = new AbortController();
  private readonly watched = new Set<string>();

  constructor(
    private readonly tracker: Tracker,
    private readonly options: WatcherOptions = {},
  ) {}

  watch(trackingNumber: string, listener: StateListener): void {
    if (this.watched.has(trackingNumber)) return;
    this.watched.add(trackingNumber);
    void this.loop(trackingNumber, listener, this.controller.signal);
  }

  dispose(): void {
    this.controller.abort();
    this.watched.clear();
  }

  private async loop(trackingNumber: string, listener: StateListener, signal: AbortSignal): Promise<void> {
    let last: string | undefined;
    while (!signal.aborted) {
      const result = await this.tracker.track(trackingNumber, { signal }).catch((error: unknown) => {
        if (!signal.aborted) this.options.onError?.(trackingNumber, error);
        return undefined;
      });
      if (result?.ok) {
        const key = JSON.stringify(result.value.state);
        if (key !== last) listener(trackingNumber, result.value.state);
        last = key;
        if (result.value.state.state === "delivered") break;
      } else if (result) {
        this.options.onError?.(trackingNumber, result.error);
      }
      await sleep(this.options.intervalMs ?? 600_000, signal);
    }
    this.watched.delete(trackingNumber);
  }
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
