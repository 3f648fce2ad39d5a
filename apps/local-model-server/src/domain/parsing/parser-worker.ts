/**
 * The parser worker thread's entry (started by ParserPool): answers each request with its
 * plain-data result, or with the error's message. A parse that runs past the call's deadline is
 * stopped from outside (the pool terminates the thread); one that outgrows the thread's memory
 * limit ends the thread, not the server.
 */
import { parentPort } from "node:worker_threads";
import { runParseTask, type ParseRequest } from "./parse-tasks.js";

export interface WorkerRequest {
  id: number;
  request: ParseRequest;
}

export type WorkerReply = { id: number; result: unknown } | { id: number; error: string; stackOverflow: boolean };

const port = parentPort;
if (!port) throw new Error("parser-worker.js runs as a worker thread (see parser-pool.ts)");

port.on("message", ({ id, request }: WorkerRequest) => {
  void runParseTask(request).then(
    (result) => port.postMessage({ id, result } satisfies WorkerReply),
    (error: unknown) =>
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error), stackOverflow: error instanceof RangeError } satisfies WorkerReply),
  );
});
