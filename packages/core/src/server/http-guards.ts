import type { IncomingMessage } from "node:http";

const LOOPBACK_HOSTNAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * DNS-rebinding protection for loopback HTTP surfaces (MCP over HTTP, dashboards): the Host must
 * be a loopback name with our port, and an Origin, when present, a loopback origin with our port.
 * Returns why a request is refused, or undefined when it may pass.
 */
export function checkLoopbackRequest(req: IncomingMessage, port: number): string | undefined {
  const host = req.headers.host;
  if (!host) return "missing Host header";
  let hostUrl: URL;
  try {
    hostUrl = new URL(`http://${host}`);
  } catch {
    return `invalid Host header`;
  }
  if (!LOOPBACK_HOSTNAMES.has(hostUrl.hostname) || hostUrl.port !== String(port)) {
    return `Host ${host} is not this loopback server`;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return "invalid Origin header";
  }
  if (originUrl.protocol !== "http:" || !LOOPBACK_HOSTNAMES.has(originUrl.hostname) || originUrl.port !== String(port)) {
    return `Origin ${origin} is not allowed`;
  }
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
