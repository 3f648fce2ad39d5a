import { ToolError } from "../errors.js";

export type ReadinessState =
  | { state: "unconfigured"; reason: string }
  | { state: "loading"; reason: string; progress?: number }
  | { state: "ready" }
  | { state: "failed"; reason: string };

/**
 * L-adapter-required. Holds whether something a tool needs (a model, an adapter, an index) is
 * usable. Tools that declare it in `requires` answer `NOT_READY` with what is missing or how far
 * loading has come, instead of failing obscurely.
 */
export class Readiness {
  private current: ReadinessState;
  private readonly waiters = new Set<() => void>();

  constructor(
    /** What this readiness is about, e.g. "model" or "LoRA adapter". */
    readonly subject: string,
    initial: ReadinessState = { state: "unconfigured", reason: `${subject} is not configured` },
  ) {
    this.current = initial;
  }

  get state(): ReadinessState {
    return this.current;
  }

  get isReady(): boolean {
    return this.current.state === "ready";
  }

  markUnconfigured(reason: string): void {
    this.current = { state: "unconfigured", reason };
    this.settle();
  }

  markLoading(reason = `loading ${this.subject}`, progress?: number): void {
    this.current = progress === undefined ? { state: "loading", reason } : { state: "loading", reason, progress };
  }

  markReady(): void {
    this.current = { state: "ready" };
    this.settle();
  }

  markFailed(reason: string): void {
    this.current = { state: "failed", reason };
    this.settle();
  }

  /**
   * While loading, waits until the state settles (ready, failed or unconfigured), the signal
   * aborts, or `maxWaitMs` passes — whichever comes first. A call that arrives while a model is
   * still loading then runs as soon as the load is done instead of being refused.
   */
  waitWhileLoading(maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    if (this.current.state !== "loading" || maxWaitMs <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMs);
      signal?.addEventListener("abort", done, { once: true });
      this.waiters.add(done);
    });
  }

  private settle(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Throws `NOT_READY` unless ready; the error says why and what to do. */
  assertReady(): void {
    const s = this.current;
    if (s.state === "ready") return;
    const progress = s.state === "loading" && s.progress !== undefined ? ` (${Math.round(s.progress * 100)}%)` : "";
    const suggestion =
      s.state === "loading"
        ? "Loading is under way; call again in a few seconds."
        : s.state === "failed"
          ? `Fix the ${this.subject} configuration and restart the server.`
          : `Configure the ${this.subject} (see the server's docs) and restart the server.`;
    throw new ToolError("NOT_READY", `${this.subject} is not ready: ${s.reason}${progress}`, {
      recoverable: s.state === "loading",
      suggestion,
      details: { subject: this.subject, ...s },
    });
  }
}
