import { readFileSync } from "node:fs";
import { freemem } from "node:os";
import { ToolError } from "../errors.js";

/** Memory the OS can still give: MemAvailable on Linux, else os.freemem(). */
export function availableMemoryBytes(): number {
  try {
    const match = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync("/proc/meminfo", "utf8"));
    if (match?.[1]) return Number(match[1]) * 1024;
  } catch {
    // not Linux: fall through
  }
  return freemem();
}

export interface MemoryGuardOptions {
  /** The bound for this process's resident memory, in bytes. */
  boundBytes: number;
  /** Sources, injectable for tests; default to process RSS and available memory. */
  rssBytes?: () => number;
  availableBytes?: () => number;
}

const GiB = 1024 ** 3;
export function formatBytes(bytes: number): string {
  return bytes >= GiB ? `${(bytes / GiB).toFixed(2)} GiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/**
 * L-memory-bound. Before loading (a model, an index) the caller passes an estimate; the guard
 * refuses with `RESOURCE_EXHAUSTED` when RSS + estimate would pass the bound or the estimate is
 * more than the machine has free. During work, `watch` aborts when RSS passes the bound.
 */
export class MemoryGuard {
  private readonly rss: () => number;
  private readonly available: () => number;

  constructor(private readonly options: MemoryGuardOptions) {
    this.rss = options.rssBytes ?? (() => process.memoryUsage.rss());
    this.available = options.availableBytes ?? availableMemoryBytes;
  }

  get boundBytes(): number {
    return this.options.boundBytes;
  }

  /** Refuses a load of `estimateBytes` that would not fit. */
  admit(estimateBytes: number, what: string): void {
    const rss = this.rss();
    const bound = this.options.boundBytes;
    if (rss + estimateBytes > bound) {
      throw new ToolError(
        "RESOURCE_EXHAUSTED",
        `${what} needs about ${formatBytes(estimateBytes)}; with ${formatBytes(rss)} in use that passes the memory bound of ${formatBytes(bound)}.`,
        {
          suggestion: "Use a smaller model or context size, or raise the memory bound.",
          details: { estimateBytes, rssBytes: rss, boundBytes: bound },
        },
      );
    }
    const available = this.available();
    if (estimateBytes > available) {
      throw new ToolError(
        "RESOURCE_EXHAUSTED",
        `${what} needs about ${formatBytes(estimateBytes)} but only ${formatBytes(available)} is free on this machine.`,
        {
          suggestion: "Close other programs or use a smaller model or context size.",
          details: { estimateBytes, availableBytes: available },
        },
      );
    }
  }

  /** Refuses new work while this process is already above its bound. */
  assertWithinBound(what = "This call"): void {
    this.admit(0, what);
  }

  /**
   * Samples RSS every `intervalMs` and aborts `controller` with `RESOURCE_EXHAUSTED` when it
   * passes the bound. Returns a function that stops watching.
   */
  watch(controller: AbortController, intervalMs = 250): () => void {
    const timer = setInterval(() => {
      const rss = this.rss();
      if (rss > this.options.boundBytes) {
        controller.abort(
          new ToolError(
            "RESOURCE_EXHAUSTED",
            `Memory use ${formatBytes(rss)} passed the bound of ${formatBytes(this.options.boundBytes)}; the work was stopped.`,
            {
              details: { rssBytes: rss, boundBytes: this.options.boundBytes },
            },
          ),
        );
      }
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
