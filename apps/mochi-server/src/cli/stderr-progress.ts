/**
 * Progress of a long CLI run on stderr: silent for the first second (short runs print nothing),
 * then one line per second, and a final line if anything was printed. stdout stays for results.
 */
export class StderrProgress {
  private readonly started = performance.now();
  private lastPrinted: number | undefined;

  constructor(
    private readonly label: string,
    private readonly enabled: boolean,
    private readonly write: (line: string) => void = (line) => void process.stderr.write(line),
    private readonly intervalMs = 1_000,
  ) {}

  update(done: number, total: number): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.started < this.intervalMs) return;
    if (this.lastPrinted !== undefined && now - this.lastPrinted < this.intervalMs) return;
    this.lastPrinted = now;
    const share = total > 0 ? ` (${Math.floor((100 * done) / total)}%)` : "";
    this.write(`${this.label}: ${done}/${total} files${share}, ${((now - this.started) / 1000).toFixed(1)} s\n`);
  }

  finish(done: number): void {
    if (this.enabled && this.lastPrinted !== undefined) {
      this.write(`${this.label}: ${done} files in ${((performance.now() - this.started) / 1000).toFixed(1)} s\n`);
    }
  }
}
