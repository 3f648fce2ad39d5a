/**
 * How the dashboard answers: JSON bodies, coded JSON errors, and the security headers every
 * response carries. Error bodies keep the original dashboard's `error` string (its clients read
 * `data.error`) and add `code` (core's error codes), `status`, and a `suggestion` when known.
 */
import type { ServerResponse } from "node:http";
import { ERROR_STATUS } from "@local-mcp/core";
import type { ErrorCode } from "@local-mcp/core";
import { isCatDocError } from "../domain/index.js";

export interface ApiErrorBody {
  error: string;
  code: ErrorCode;
  status: number;
  suggestion?: string;
  details?: Record<string, unknown>;
}

/** A failure with an HTTP status to answer with; handlers throw it, the server renders it. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly status: number;
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const COMMON_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Frame-Options": "DENY",
} as const;

/** The page may load its own scripts, styles and data only. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function sendJson(res: ServerResponse, status: number, body: unknown, headOnly = false, extraHeaders: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...extraHeaders,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  res.end(headOnly ? undefined : text);
}

export function sendBytes(res: ServerResponse, body: Buffer, contentType: string, headOnly = false, extraHeaders: Record<string, string> = {}): void {
  res.writeHead(200, {
    ...COMMON_HEADERS,
    ...extraHeaders,
    "Content-Type": contentType,
    "Content-Length": body.length,
    "Cache-Control": "no-cache",
  });
  res.end(headOnly ? undefined : body);
}

/** The error body and status for anything a handler threw; `internal` is set for bugs. */
export function errorResponse(error: unknown): { status: number; body: ApiErrorBody; headers: Record<string, string>; internal: boolean } {
  if (error instanceof HttpError) {
    return { status: error.status, body: { error: error.message, code: error.code, status: error.status }, headers: error.headers, internal: false };
  }
  if (isCatDocError(error)) {
    const status = ERROR_STATUS[error.code];
    const body: ApiErrorBody = { error: error.message, code: error.code, status };
    if (error.suggestion !== undefined) body.suggestion = error.suggestion;
    if (Object.keys(error.details).length > 0) body.details = error.details;
    return { status, body, headers: {}, internal: false };
  }
  return {
    status: 500,
    body: { error: "Internal error in the dashboard server (see its log)", code: "INTERNAL", status: 500 },
    headers: {},
    internal: true,
  };
}
