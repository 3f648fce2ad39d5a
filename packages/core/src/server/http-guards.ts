import type { IncomingMessage } from "node:http";

/** The loopback names a request may use, written exactly so: no other spelling of loopback passes. */
export const LOOPBACK_HOST_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** How many times a header occurs in the request as sent (Node keeps only the first Host). */
function headerCount(req: IncomingMessage, name: string): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]?.toLowerCase() === name) count += 1;
  return count;
}

/**
 * DNS-rebinding protection for loopback HTTP surfaces (MCP over HTTP, dashboards). A request
 * passes only when, compared as exact strings:
 *
 * - it has one Host header, and it is `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT` with the
 *   port the server listens on — not another spelling a lenient parser maps to loopback (`127.1`,
 *   `0x7f000001`, `2130706433`, `0177.0.0.1`, `127.0.0.1.`, `[::ffff:127.0.0.1]`, `LOCALHOST`,
 *   `evil@127.0.0.1:PORT`, `:0PORT`, anything after the port);
 * - it has at most one Origin header, and when present it is `http://` followed by one of those;
 * - its target is a path (`/mcp`), not an absolute URL (`POST http://evil/mcp`).
 *
 * Returns why a request is refused, or undefined when it may pass.
 */
export function checkLoopbackRequest(req: IncomingMessage, port: number): string | undefined {
  const host = req.headers.host;
  if (!host) return "missing Host header";
  const allowed = LOOPBACK_HOST_NAMES.map((name) => `${name}:${port}`);
  if (headerCount(req, "host") !== 1) return "more than one Host header";
  if (!allowed.includes(host)) return `Host ${host} is not this loopback server`;
  if (!(req.url ?? "").startsWith("/")) return "the request target must be a path, not an absolute URL";
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (headerCount(req, "origin") !== 1) return "more than one Origin header";
  if (!allowed.some((name) => origin === `http://${name}`)) return `Origin ${origin} is not allowed`;
  return undefined;
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: number; message: string };

/** Reads a JSON request body of at most 4 MiB. */
export async function readJsonBody(req: IncomingMessage): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, message: "Request body too large" };
    chunks.push(buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { ok: false, status: 400, message: "Parse error: the body is not valid JSON" };
  }
}
