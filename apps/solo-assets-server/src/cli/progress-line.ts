/**
 * Progress of a long command (a save, a reindex) on a terminal: one line on stderr, replaced by
 * each new message and cleared before the result is printed, so every step shows once (the
 * result lists them). When stderr is not a terminal nothing is printed: a log or a pipe gets
 * only the result.
 */
import type { CliIo } from "./cli-setup.js";

export interface ProgressLine {
  say(message: string): void;
  clear(): void;
}

export function progressLine(stderr: CliIo["stderr"] & { columns?: number }): ProgressLine {
  if (!stderr.isTTY) return { say: () => undefined, clear: () => undefined };
  let shown = false;
  return {
    say: (message) => {
      // Kept within one terminal row: a wrapped line could not be replaced.
      const width = Math.max(20, (stderr.columns ?? 80) - 1);
      const text = `… ${message.replace(/\s+/g, " ")}`;
      stderr.write(`\r\x1b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
      shown = true;
    },
    clear: () => {
      if (shown) stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}
