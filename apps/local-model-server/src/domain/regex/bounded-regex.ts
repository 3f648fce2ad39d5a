/**
 * Regex search with a real time bound. JavaScript regexes backtrack, so a pattern such as
 * `(a+)+$` can run for hours on a short input and would freeze the event loop. Searches run in
 * a worker thread, one file at a time; when one outlasts the bound the worker is terminated
 * (V8 stops the regex) and the call gets TIMEOUT naming the pattern and the file. The next
 * search starts a fresh worker.
 */
import { Worker } from "node:worker_threads";
import { ToolError } from "@local-mcp/core";
import { searchPatterns, type PatternMatch, type PatternSpec } from "./pattern-search.js";

export type { PatternMatch, PatternSpec } from "./pattern-search.js";

/** The worker evaluates this: the search function's own source, so it cannot drift. */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const searchPatterns = ${searchPatterns.toString()};
parentPort.on("message", (request) => {
  try {
    const matches = searchPatterns(request.text, request.patterns, request.maxMatches, (index) =>
      parentPort.postMessage({ id: request.id, started: index }),
    );
    parentPort.postMessage({ id: request.id, matches });
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: String((error && error.message) || error) });
  }
});
`;

const SLASHED = /^\/(.*)\/([a-z]*)$/s;

/**
 * Turns user patterns into regex specs: `text` or `/text/flags`. Every search is global and
 * multiline (`^`/`$` match at line ends). A pattern that does not compile is INVALID_INPUT.
 */
export function compilePatterns(patterns: readonly string[], field = "patterns"): PatternSpec[] {
  return patterns.map((pattern, index) => {
    const slashed = SLASHED.exec(pattern);
    const source = slashed ? (slashed[1] ?? "") : pattern;
    const flags = [...new Set(`${slashed?.[2] ?? ""}gm`)].join("");
    try {
      new RegExp(source, flags);
    } catch (error) {
      throw new ToolError("INVALID_INPUT", `${field}[${index}] is not a valid regular expression: ${(error as Error).message}`, {
        details: { field: `${field}.${index}`, pattern },
      });
    }
    return { source, flags };
  });
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** Named in the TIMEOUT message. */
  file: string;
  /** Patterns as the caller wrote them, for messages. */
  labels: readonly string[];
  maxMatches?: number;
}

type WorkerMessage = { id: number; started: number } | { id: number; matches: PatternMatch[] } | { id: number; error: string };

export class RegexRunner {
  private worker: Promise<Worker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 0;

  constructor(readonly timeoutMs: number) {}

  /** Searches one text; calls run one at a time. */
  search(text: string, patterns: readonly PatternSpec[], options: SearchOptions): Promise<PatternMatch[]> {
    const run = this.queue.then(() => this.run(text, patterns, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }

  private startWorker(): Promise<Worker> {
    this.worker ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.unref();
      worker.once("online", () => resolve(worker));
      worker.once("error", (error) => {
        this.worker = undefined;
        reject(error);
      });
    });
    return this.worker;
  }

  private async run(text: string, patterns: readonly PatternSpec[], options: SearchOptions): Promise<PatternMatch[]> {
    if (options.signal?.aborted) throw options.signal.reason;
    const worker = await this.startWorker();
    const id = ++this.nextId;
    return new Promise<PatternMatch[]>((resolve, reject) => {
      let current = 0;
      const finish = () => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        options.signal?.removeEventListener("abort", onAbort);
      };
      /** Stops the worker; settles the call only once the thread has really stopped. */
      const kill = (settle: () => void) => {
        this.worker = undefined;
        worker.terminate().then(settle, settle);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.id !== id) return;
        if ("started" in message) {
          current = message.started;
          return;
        }
        finish();
        if ("error" in message) reject(new ToolError("INVALID_INPUT", `Pattern search failed on ${options.file}: ${message.error}`));
        else resolve(message.matches);
      };
      const onError = (error: Error) => {
        finish();
        kill(() => reject(error));
      };
      const onAbort = () => {
        finish();
        kill(() => reject(options.signal?.reason));
      };
      const timer = setTimeout(() => {
        finish();
        const label = options.labels[current] ?? String(current);
        kill(() =>
          reject(
            new ToolError("TIMEOUT", `Pattern '${label}' did not finish within ${this.timeoutMs} ms on ${options.file} and was stopped.`, {
              suggestion:
                "Simplify the pattern: nested quantifiers such as (a+)+ backtrack exponentially. Or narrow the files, or handle this search directly.",
              details: { pattern: label, file: options.file, timeoutMs: this.timeoutMs },
            }),
          ),
        );
      }, this.timeoutMs);
      worker.on("message", onMessage);
      worker.on("error", onError);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      // The signal may have fired while the worker was starting: its listener came too late.
      if (options.signal?.aborted) onAbort();
      else worker.postMessage({ id, text, patterns, maxMatches: options.maxMatches ?? 1000 });
    });
  }
}
