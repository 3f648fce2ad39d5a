/**
 * Parsing off the main thread, bounded (issue #13). YAML frontmatter, Markdown outlines, the
 * check of data against a caller's JSON schema and template filling run in worker threads — a small pool, started on first use — each with a heap and stack
 * limit. The caller's AbortSignal (the tool call's deadline or the client's cancellation)
 * terminates the thread doing its parse (V8 stops it wherever it is), so the call is answered at
 * its deadline and the event loop stays free for other calls meanwhile. A parse that outgrows
 * the heap limit ends its thread, not the server: the call gets RESOURCE_EXHAUSTED. The next
 * parse starts a fresh thread.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ToolError } from "@local-mcp/core";
import { packageRoot } from "../../package-root.js";
import type { ParseRequest, ParseResult } from "./parse-tasks.js";
import type { WorkerReply, WorkerRequest } from "./parser-worker.js";

/**
 * The built worker, dist/domain/parsing/parser-worker.js of this package (its own bundle entry),
 * found from this module wherever it is: src/ under vitest (Node cannot run TypeScript in a
 * worker, so the built copy runs; turbo builds before tests), dist/ or a bundle chunk.
 */
export function parserWorkerUrl(moduleUrl: string = import.meta.url): URL {
  return pathToFileURL(join(packageRoot(moduleUrl), "dist", "domain", "parsing", "parser-worker.js"));
}

export interface ParserPoolOptions {
  /** Worker threads at most (default 2). */
  size?: number;
  /** Heap limit of each thread (old generation), MB (default 512). */
  memoryMb?: number;
  /** Stack of each thread, MB (default 4). */
  stackMb?: number;
}

export interface ParseOptions {
  signal: AbortSignal;
  /** What is parsed, for messages: "the frontmatter of notes.md". */
  what: string;
}

interface Job {
  request: ParseRequest;
  options: ParseOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onAbort: () => void;
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  id: number;
}

export class ParserPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 0;
  private disposed = false;
  private readonly size: number;
  private readonly memoryMb: number;
  private readonly stackMb: number;

  constructor(
    options: ParserPoolOptions = {},
    private readonly workerUrl: URL = parserWorkerUrl(),
  ) {
    this.size = options.size ?? 2;
    this.memoryMb = options.memoryMb ?? 512;
    this.stackMb = options.stackMb ?? 4;
  }

  /** Parses in a worker; rejects with the signal's reason as soon as it aborts. */
  run<R extends ParseRequest>(request: R, options: ParseOptions): Promise<ParseResult<R>> {
    if (options.signal.aborted) return Promise.reject(options.signal.reason);
    if (this.disposed)
      return Promise.reject(
        new ToolError("NOT_READY", "The server is shutting down.", { suggestion: "Call again once the server has restarted." }),
      );
    return new Promise<ParseResult<R>>((resolve, reject) => {
      const job: Job = { request, options, resolve: resolve as (value: unknown) => void, reject, onAbort: () => this.abort(job) };
      options.signal.addEventListener("abort", job.onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Stops every thread; queued and running parses are refused. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const job of this.queue.splice(0)) this.settle(job, () => job.reject(new ToolError("NOT_READY", "The server is shutting down.")));
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.allSettled(
      slots.map((slot) => {
        const job = slot.job;
        slot.job = undefined;
        if (job) this.settle(job, () => job.reject(new ToolError("NOT_READY", "The server is shutting down.")));
        return slot.worker.terminate();
      }),
    );
  }

  /** Starts one thread ahead of the first parse (a cold thread takes a moment to load its parsers). */
  warm(): void {
    if (!this.disposed && this.slots.size === 0) this.spawn();
  }

  /** Threads now running (for tests). */
  get threads(): number {
    return this.slots.size;
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.disposed) {
      let slot = [...this.slots].find((s) => s.job === undefined);
      if (!slot) {
        if (this.slots.size >= this.size) return;
        slot = this.spawn();
      }
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.id = ++this.nextId;
      job.slot = slot;
      slot.worker.ref();
      slot.worker.postMessage({ id: slot.id, request: job.request } satisfies WorkerRequest);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: this.stackMb },
      // A thread's own output goes to stderr: stdout is the MCP channel.
      stdout: true,
      stderr: true,
    });
    worker.stdout.pipe(process.stderr, { end: false });
    worker.stderr.pipe(process.stderr, { end: false });
    worker.unref();
    const slot: Slot = { worker, job: undefined, id: 0 };
    worker.on("message", (reply: WorkerReply) => {
      const job = slot.job;
      if (!job || reply.id !== slot.id) return;
      slot.job = undefined;
      worker.unref();
      this.settle(job, () => {
        if ("toolError" in reply) {
          const { code, message, ...options } = reply.toolError;
          job.reject(new ToolError(code, message, options));
        } else if ("error" in reply) job.reject(this.parseError(job, reply));
        else job.resolve(reply.result);
      });
      this.pump();
    });
    worker.on("error", (error: Error & { code?: string }) => this.lost(slot, error));
    worker.on("exit", (code) => this.lost(slot, new Error(`the parser thread exited (code ${code})`)));
    this.slots.add(slot);
    return slot;
  }

  /** A thread died (out of memory, or it could not start): its parse fails, the next one gets a fresh thread. */
  private lost(slot: Slot, error: Error & { code?: string }): void {
    this.slots.delete(slot);
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      const failure =
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new ToolError("RESOURCE_EXHAUSTED", `Parsing ${job.options.what} needed more than ${this.memoryMb} MB and was stopped.`, {
              suggestion: "The file is too large or too complex to parse here; narrow the request or read the part you need directly.",
              details: { memoryMb: this.memoryMb },
            })
          : new ToolError("INTERNAL", `The parser thread failed while parsing ${job.options.what}: ${error.message}`);
      this.settle(job, () => job.reject(failure));
    }
    this.pump();
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const slot = job.slot;
    if (slot && slot.job === job) {
      // Stop the thread where it is; the next parse starts a fresh one.
      slot.job = undefined;
      this.slots.delete(slot);
      void slot.worker.terminate();
    }
    this.settle(job, () => job.reject(job.options.signal.reason));
    this.pump();
  }

  private settle(job: Job, done: () => void): void {
    job.options.signal.removeEventListener("abort", job.onAbort);
    done();
  }

  private parseError(job: Job, reply: Extract<WorkerReply, { error: string }>): ToolError {
    if (reply.stackOverflow) {
      return new ToolError("INVALID_INPUT", `${capitalize(job.options.what)} nests too deeply to parse (${reply.error}).`, {
        suggestion: "Flatten the structure, or read the part you need directly.",
      });
    }
    return new ToolError("INTERNAL", `Parsing ${job.options.what} failed: ${reply.error}`);
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
