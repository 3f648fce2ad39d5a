/**
 * Progress on stderr for work that takes a while. On a terminal, a status line appears when the
 * work has run longer than `delayMs` and is erased when it ends; elsewhere (pipes, tests, CI)
 * nothing is printed, so stderr carries only messages that matter there.
 */
import type { TextSink } from "./cli-io.js";
import { oneLine } from "./text-width.js";

export class Progress {
  private readonly sink: TextSink;
  private shown = false;
  private timer: NodeJS.Timeout | undefined;
  private label = "";

  constructor(sink: TextSink) {
    this.sink = sink;
  }

  get enabled(): boolean {
    return this.sink.isTTY === true;
  }

  /** Shows `label` after `delayMs` (terminal only). */
  start(label: string, delayMs = 250): void {
    this.label = oneLine(label);
    if (!this.enabled) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.draw(), delayMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.shown) this.sink.write("\r\u001b[2K");
    this.shown = false;
  }

  /** Runs `work` with `label` shown while it lasts. */
  async around<T>(label: string, work: () => Promise<T>): Promise<T> {
    this.start(label);
    try {
      return await work();
    } finally {
      this.stop();
    }
  }

  private draw(): void {
    this.shown = true;
    this.sink.write(`\r\u001b[2K${this.label}…`);
  }
}
