/**
 * How a local web dashboard answers (catdoc's and solo-assets'): JSON bodies, static assets, a
 * JSON request body read within a bound, and the security headers every answer carries. The
 * error BODY stays each app's own (its page reads it); the status, code and headers come from here.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorCode } from "../errors.js";

/**
 * The one Content-Security-Policy of the dashboards: only the page's own scripts, styles, data
 * and images load; no inline script or style, no plugin, no framing, no form posting elsewhere.
 * `img-src data:` is for a `data:,` favicon link (no favicon request); a data image runs nothing.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers on every answer: no sniffing, no referrer, no cross-origin reads, no framing, no caching. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Frame-Options": "DENY",
  // Pages may carry a token (solo-assets' dashboard link) and answers are live data: never stored.
  "Cache-Control": "no-store",
});

/** A failure with an HTTP status and a core error code; handlers throw it, the server renders it. */
export class HttpError extends Error {
  override readonly name = "HttpError";

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers (`Allow` on a 405). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export interface SendOptions {
  /** Answer a HEAD request: the headers only. */
  headOnly?: boolean;
  /** More headers (they cannot replace the security headers). */
  headers?: Readonly<Record<string, string>>;
}

/** Sends `body` as JSON with `status`. */
export function sendJson(res: ServerResponse, status: number, body: unknown, options: SendOptions = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...options.headers,
    ...DASHBOARD_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(options.headOnly === true ? undefined : text);
}

/** Sends a page or one of its assets (200), under the dashboards' CSP. */
export function sendAsset(res: ServerResponse, body: string | Buffer, contentType: string, options: SendOptions = {}): void {
  res.writeHead(200, {
    ...options.headers,
    ...DASHBOARD_HEADERS,
    "Content-Security-Policy": DASHBOARD_CSP,
    "Content-Type": contentType,
    "Content-Length": typeof body === "string" ? Buffer.byteLength(body) : body.length,
  });
  res.end(options.headOnly === true ? undefined : body);
}

export interface ReadJsonOptions {
  /** Largest body taken (default 64 KiB); a larger one is refused with 413 before it is all read. */
  maxBytes?: number;
  /**
   * Refuse (415) a body not sent as `application/json`: a page of another site cannot send that
   * type without a CORS preflight, so a form post from it is refused before anything is parsed.
   */
  requireJsonType?: boolean;
  /** An empty body reads as `{}` (catdoc's original dashboard posts without one); else 400. */
  emptyAsObject?: boolean;
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** The request's body as a JSON object, or an HttpError (400, 413, 415) saying what is wrong. */
export async function readJsonObject(req: IncomingMessage, options: ReadJsonOptions = {}): Promise<Record<string, unknown>> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (options.requireJsonType === true && !/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
    throw new HttpError(415, "INVALID_INPUT", "Send the body as application/json.");
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new HttpError(413, "INVALID_INPUT", `The request body is larger than ${maxBytes} bytes.`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "" && options.emptyAsObject === true) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, "INVALID_INPUT", "The request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HttpError(400, "INVALID_INPUT", "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}
