/** What a tool reports about its own progress. */
export interface ProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

export type ProgressSender = (report: ProgressReport) => Promise<void>;

export interface ProgressReporterOptions {
  /** Sends one `notifications/progress`; absent when the client gave no progress token. */
  send?: ProgressSender | undefined;
  /** Heartbeat period while the tool has not reported progress of its own. */
  heartbeatMs: number;
  /** Failures to send are logged, never thrown into the work. */
  onError?: (error: unknown) => void;
}

/**
 * Progress for one call. While the tool has not reported anything itself, a heartbeat goes out
 * every `heartbeatMs` ("working… 2.0 s") so a client that asked knows the work is alive. Once the
 * tool reports, its reports drive the notifications. The spec requires increasing `progress`
 * values, so a report that does not increase is dropped.
 */
export class ProgressReporter {
  private last = 0;
  private ownReports = false;
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ProgressReporterOptions) {}

  get enabled(): boolean {
    return this.options.send !== undefined;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => {
      if (this.ownReports) return;
      const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
      this.emit({ progress: this.last + 1, message: `working… ${seconds} s` });
    }, this.options.heartbeatMs);
    this.timer.unref();
  }

  /** Called by tools: `ctx.progress({progress: 3, total: 10, message: "indexing"})`. */
  report(report: ProgressReport): void {
    this.ownReports = true;
    this.emit(report);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private emit(report: ProgressReport): void {
    const send = this.options.send;
    if (!send || !(report.progress > this.last)) return;
    this.last = report.progress;
    send(report).catch((error: unknown) => this.options.onError?.(error));
  }
}
