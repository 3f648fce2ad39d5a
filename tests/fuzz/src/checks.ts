/**
 * What every fuzzed call is held to. A call passes when the process lives, stdout stays JSON-RPC,
 * the answer arrives within the tool's deadline plus slack, and the answer is either a result
 * that matches the tool's output schema or a failure that says what went wrong with a code: a
 * tool error (`isError` and core's error body with its code) or a JSON-RPC protocol error.
 * Besides: no stack trace in an error, no answer above Claude Code's 25,000-token limit, and no
 * answer carrying the marker of a file outside the served root. INTERNAL answers are coded, so
 * they fail only a strict run (every server's default: `FuzzTarget.strict`; FUZZ_STRICT overrides);
 * the report lists them either way.
 */
import { DEFAULT_MAX_RESPONSE_TOKENS, ToolErrorBodySchema, jsonTokensAtMost } from "@local-mcp/core";
import { ProtocolErrorCode, type CallToolResult } from "@modelcontextprotocol/client";
import type { CallOutcome } from "./connection.js";

export const FAILURE_KINDS = [
  "crash",
  "non_json_stdout",
  "uncoded_error",
  "deadline_overrun",
  "stack_trace",
  "output_schema",
  "oversized_response",
  "root_escape",
  "internal_error",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export interface Failure {
  kind: FailureKind;
  detail: string;
}

/** How a call ended, for the counts. */
export type Verdict = "ok" | "tool_error" | "protocol_error" | "failed";

export interface CallReport {
  verdict: Verdict;
  /** The tool error's code (INVALID_INPUT, NOT_FOUND, …) or the JSON-RPC code. */
  code: string | undefined;
  /** The error's message, when the call answered an error. */
  message?: string | undefined;
  failures: Failure[];
}

export interface CheckContext {
  deadlineMs: number;
  slackMs: number;
  /** Text of a file outside the root; an answer containing it read past the confinement. */
  sentinel?: string | undefined;
  /** stdout lines that were not JSON-RPC before and after the call. */
  nonJsonBefore: number;
  nonJsonAfter: number;
  /** Why the process is gone, when it died during the call. */
  exited: string | undefined;
  /** Files the call left outside the served root. */
  writtenOutside?: readonly string[];
  /** Count an INTERNAL answer (coded, but a server bug by definition) as a failure (a strict run). */
  failOnInternal?: boolean;
}

/** JSON-RPC codes that report a bad request (the caller's fault) rather than a server fault. */
const PROTOCOL_CODES = new Set<number>([
  ProtocolErrorCode.ParseError,
  ProtocolErrorCode.InvalidRequest,
  ProtocolErrorCode.MethodNotFound,
  ProtocolErrorCode.InvalidParams,
]);

/** The SDK client's own messages when a result does not match the tool's output schema (or the schema cannot be used). */
const CLIENT_SCHEMA_MESSAGE =
  /Structured content does not match|Failed to validate structured content|did not return structured content|has an invalid outputSchema/;

/** A JavaScript stack frame: "    at fn (file.js:1:2)" or "at file:///x.js:1:2". */
const STACK_FRAME = /\n\s*at \S.*(:\d+:\d+\)?|\(native\)|<anonymous>)/;

function textOf(result: CallToolResult): string {
  return result.content.map((item) => (item.type === "text" ? item.text : "")).join("\n");
}

function checkToolError(result: CallToolResult, failures: Failure[]): { code: string; message: string } | undefined {
  const body = ToolErrorBodySchema.safeParse(result.structuredContent);
  if (!body.success) {
    failures.push({ kind: "uncoded_error", detail: `isError result without core's error body: ${textOf(result).slice(0, 200)}` });
    return undefined;
  }
  const text = textOf(result);
  let textBody: unknown;
  try {
    textBody = JSON.parse(text);
  } catch {
    textBody = undefined;
  }
  if (!ToolErrorBodySchema.safeParse(textBody).success) {
    failures.push({ kind: "uncoded_error", detail: `the error's text content is not the JSON error body: ${text.slice(0, 200)}` });
  }
  const { message, suggestion } = body.data.error;
  if (STACK_FRAME.test(message) || STACK_FRAME.test(suggestion)) {
    failures.push({ kind: "stack_trace", detail: `${body.data.error.code}: ${message.slice(0, 300)}` });
  }
  return { code: body.data.error.code, message };
}

/** Checks one call's outcome. */
export function checkCall(outcome: CallOutcome, context: CheckContext): CallReport {
  const failures: Failure[] = [];
  let verdict: Verdict = "failed";
  let code: string | undefined;
  let message: string | undefined;
  if (context.exited || outcome.kind === "closed") {
    failures.push({ kind: "crash", detail: context.exited ?? (outcome.kind === "closed" ? outcome.message : "the process exited") });
  }
  if (context.nonJsonAfter > context.nonJsonBefore) {
    failures.push({ kind: "non_json_stdout", detail: `${context.nonJsonAfter - context.nonJsonBefore} non-JSON-RPC stdout line(s)` });
  }
  const limit = context.deadlineMs + context.slackMs;
  if (outcome.kind === "timeout" || outcome.latencyMs > limit) {
    failures.push({
      kind: "deadline_overrun",
      detail: `${outcome.kind === "timeout" ? "no answer" : "answered"} after ${Math.round(outcome.latencyMs)} ms; deadline ${context.deadlineMs} ms + ${context.slackMs} ms slack`,
    });
  }
  if (outcome.kind === "result") {
    const text = JSON.stringify(outcome.result.structuredContent ?? textOf(outcome.result)) ?? "";
    // As core's budget counts: o200k tokens once runCase has loaded the tokenizer, else UTF-8 bytes (never fewer).
    const tokens = Buffer.byteLength(text, "utf8") > DEFAULT_MAX_RESPONSE_TOKENS ? jsonTokensAtMost(text) : 0;
    if (tokens > DEFAULT_MAX_RESPONSE_TOKENS)
      failures.push({ kind: "oversized_response", detail: `${tokens} tokens (limit ${DEFAULT_MAX_RESPONSE_TOKENS})` });
    if (context.sentinel && (text.includes(context.sentinel) || textOf(outcome.result).includes(context.sentinel))) {
      failures.push({ kind: "root_escape", detail: "the answer carries the text of a file outside the root" });
    }
    if (outcome.result.isError) {
      const error = checkToolError(outcome.result, failures);
      code = error?.code;
      message = error?.message;
      if (code === "INTERNAL" && context.failOnInternal) failures.push({ kind: "internal_error", detail: (message ?? "").slice(0, 300) });
      verdict = "tool_error";
    } else if (outcome.result.structuredContent === undefined) {
      failures.push({ kind: "output_schema", detail: "a result without structuredContent" });
    } else {
      verdict = "ok";
    }
  } else if (outcome.kind === "rpc-error") {
    code = String(outcome.code);
    message = outcome.message;
    if (CLIENT_SCHEMA_MESSAGE.test(outcome.message)) {
      failures.push({ kind: "output_schema", detail: outcome.message.slice(0, 300) });
    } else if (!PROTOCOL_CODES.has(outcome.code)) {
      failures.push({
        kind: "uncoded_error",
        detail: `JSON-RPC error ${outcome.code} (not a protocol error): ${outcome.message.slice(0, 300)}`,
      });
    } else {
      verdict = "protocol_error";
    }
    if (STACK_FRAME.test(outcome.message)) failures.push({ kind: "stack_trace", detail: outcome.message.slice(0, 300) });
  } else if (outcome.kind === "client-error") {
    failures.push({ kind: "uncoded_error", detail: `the client could not use the answer: ${outcome.message.slice(0, 300)}` });
  }
  if (context.writtenOutside && context.writtenOutside.length > 0) {
    failures.push({ kind: "root_escape", detail: `wrote outside the root: ${context.writtenOutside.slice(0, 3).join(", ")}` });
  }
  if (failures.length > 0) verdict = "failed";
  return { verdict, code, message, failures };
}
