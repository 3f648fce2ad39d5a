/** JSON and static responses of the dashboard, with the headers every answer carries. */
import type { IncomingMessage, ServerResponse } from "node:http";

/** The page loads only its own script and styles; nothing may frame it. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const COMMON_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { ...COMMON_HEADERS, "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

export function sendStatic(res: ServerResponse, body: string, contentType: string): void {
  res.writeHead(200, { ...COMMON_HEADERS, "content-type": contentType, "content-security-policy": PAGE_CSP, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const MAX_BODY = 64 * 1024;

/** A JSON object body (at most 64 KiB, content-type application/json). */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
    throw new HttpError(415, "Send the body as application/json.");
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, "The body is too large.");
    chunks.push(chunk as Buffer);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "The body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new HttpError(400, "The body must be a JSON object.");
  return value as Record<string, unknown>;
}
