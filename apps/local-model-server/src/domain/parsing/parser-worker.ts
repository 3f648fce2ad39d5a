/**
 * The parser worker thread's entry (started by ParserPool): answers each request with its
 * plain-data result, a coded error as data, or the error's message. A parse that runs past the
 * call's deadline is stopped from outside (the pool terminates the thread); one that outgrows the
 * thread's memory limit ends the thread, not the server. Every parser (YAML, the Markdown outline,
 * Handlebars, Ajv) and core load on first use, so a fresh thread is ready quickly.
 */
import { parentPort } from "node:worker_threads";
import type { ErrorCode } from "@local-mcp/core";
import { runParseTask, type ParseRequest } from "./parse-tasks.js";

export interface WorkerRequest {
  id: number;
  request: ParseRequest;
}

/** A coded error raised by the work (a template's missing variable): it crosses the thread as data. */
export interface ToolErrorData {
  code: ErrorCode;
  message: string;
  recoverable: boolean;
  suggestion: string;
  details: Record<string, unknown> | undefined;
}

export type WorkerReply =
  { id: number; result: unknown } | { id: number; toolError: ToolErrorData } | { id: number; error: string; stackOverflow: boolean };

const port = parentPort;
if (!port) throw new Error("parser-worker.js runs as a worker thread (see parser-pool.ts)");

async function failure(id: number, error: unknown): Promise<WorkerReply> {
  // A ToolError comes from code that loaded core already, so this import costs nothing then.
  const { isToolError } = await import("@local-mcp/core");
  if (isToolError(error)) {
    return {
      id,
      toolError: {
        code: error.code,
        message: error.message,
        recoverable: error.recoverable,
        suggestion: error.suggestion,
        details: error.details,
      },
    };
  }
  return { id, error: error instanceof Error ? error.message : String(error), stackOverflow: error instanceof RangeError };
}

async function answer(id: number, request: ParseRequest): Promise<void> {
  let reply: WorkerReply;
  try {
    reply = { id, result: await runParseTask(request) };
  } catch (error) {
    reply = await failure(id, error);
  }
  port?.postMessage(reply);
}

port.on("message", ({ id, request }: WorkerRequest) => void answer(id, request));
