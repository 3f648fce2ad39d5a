import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  ProtocolErrorCode as ErrorCode,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
  type RequestId,
} from "@modelcontextprotocol/server";
import { HttpConfigSchema } from "../config.js";
import { createLogger, type Logger } from "../logger.js";
import type { CreatedServer, ServerFactory } from "./create-server.js";
import { checkLoopbackRequest, readJsonBody } from "./http-guards.js";
import { checkJsonRpcMessage } from "./json-rpc-checks.js";
import { watchListen } from "./resource-watch.js";

export interface RunHttpOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  logger?: Logger;
  /** Path of the MCP endpoint (default `/mcp`). */
  path?: string;
  /** Name for the ready line on stderr. */
  name?: string;
  /** Most sessions alive at once (default 100, `LOCAL_MCP_HTTP_MAX_SESSIONS`). */
  maxSessions?: number;
  /** A session with no request for this long is closed (default 30 min, `LOCAL_MCP_HTTP_SESSION_IDLE_MS`). */
  sessionIdleMs?: number;
}

export interface HttpHandle {
  url: string;
  port: number;
  /** Sessions alive now. */
  sessionCount: () => number;
  close: () => Promise<void>;
}

interface Session {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  created: CreatedServer;
  /** HTTP requests of the session in progress; an open SSE stream counts until it closes. */
  active: number;
  /** When its last request ended. */
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
  /** Set once it is being closed (cleanup runs once). */
  closing?: Promise<void>;
}

/** Retry-After of a 503 at the session cap: a busy session frees its place when its requests end. */
const RETRY_AFTER_S = 5;

function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  options: { id?: RequestId | null; headers?: Record<string, string> } = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...options.headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: options.id ?? null }));
}

/** A Node request as a web-standard Request, aborted when the client drops the connection. */
function webRequest(req: IncomingMessage, res: ServerResponse, url: URL, body?: unknown): Request {
  const aborted = new AbortController();
  // A request whose answer has not gone out when its connection closes was dropped by the client:
  // the SDK closes the exchange, which aborts the tool call's signal (2026-07-28 cancellation).
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(url, {
    method: req.method,
    headers,
    signal: aborted.signal,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Writes a web-standard Response to a Node response, streaming its body (SSE included). */
async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  if (res.headersSent) return;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.once("close", stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
      if (res.destroyed) break;
    }
  } catch {
    // The stream failed or was cancelled because the client went away: nothing left to write to.
  } finally {
    res.off("close", stop);
    if (!res.destroyed) res.end();
  }
}

/**
 * Serves the server over Streamable HTTP at http://127.0.0.1:PORT/mcp only, in both protocol
 * eras from the one endpoint:
 *
 * - a request carrying a 2026-07-28 `_meta` envelope goes to the SDK's `createMcpHandler`
 *   (strict: `legacy: 'reject'`), which serves it with a fresh instance of one prepared server
 *   (`factory` runs once for this era) — `server/discover`, `-32022` for an unsupported version,
 *   `subscriptions/listen`, the standard-header checks; the client cancels by closing the
 *   request's stream, which aborts the call;
 * - everything else is 2025-era traffic, served with sessions as below.
 *
 * - Every request's Host must be exactly a loopback name with this port and its Origin, when
 *   sent, exactly a loopback origin with this port (DNS-rebinding protection, see
 *   `checkLoopbackRequest`); anything else gets 403 before a session is looked at.
 * - A POST body is checked before any server sees it: a batch array, an invalid id or another
 *   message that is not JSON-RPC gets 400 with -32600 (id null when the id could not be read).
 * - Each 2025-era session gets its own server from the factory. A session with no request for
 *   `sessionIdleMs` is closed and its server cleaned up; its id then answers 404 (the spec's
 *   signal to start a new session). At most `maxSessions` live at once: a new session closes the
 *   least recently used idle one, and when every session is busy (a request in progress or an
 *   open SSE stream) the initialize is refused with 503, Retry-After and a JSON-RPC error.
 */
export async function runHttp(factory: ServerFactory, options: RunHttpOptions): Promise<HttpHandle> {
  const path = options.path ?? "/mcp";
  const defaults = HttpConfigSchema.parse({});
  const maxSessions = options.maxSessions ?? defaults.maxSessions;
  const idleMs = options.sessionIdleMs ?? defaults.sessionIdleMs;
  // Least recently used first: a session is moved to the end whenever it is used.
  const sessions = new Map<string, Session>();
  /** Initializes between the cap check and the session's registration. */
  let opening = 0;
  const logger: Logger = options.logger ?? createLogger({ name: options.name ?? "mcp-http" });
  let port = options.port;

  const retire = (session: Session, why: string): Promise<void> => {
    // Set before anything runs: closing the transport calls its onclose, which comes back here.
    if (session.closing) return session.closing;
    let done!: () => void;
    session.closing = new Promise<void>((resolve) => (done = resolve));
    void (async () => {
      if (sessions.get(session.id) === session) sessions.delete(session.id);
      clearTimeout(session.idleTimer);
      await session.transport.close().catch((error: unknown) => logger.warn("closing a session's transport failed", { error }));
      await session.created.cleanup().catch((error: unknown) => logger.error("a session's cleanup failed", { error }));
      logger.info(`closed session ${session.id} ${why} (server cleaned up; ${sessions.size} open)`);
      done();
    })();
    return session.closing;
  };

  /** Marks a request of the session in progress until its response closes; re-arms the idle expiry after. */
  const track = (session: Session, res: ServerResponse) => {
    session.active += 1;
    clearTimeout(session.idleTimer);
    if (sessions.get(session.id) === session) {
      sessions.delete(session.id);
      sessions.set(session.id, session);
    }
    res.once("close", () => {
      session.active -= 1;
      session.lastUsed = Date.now();
      if (session.active > 0 || session.closing) return;
      session.idleTimer = setTimeout(() => void retire(session, `after ${Date.now() - session.lastUsed} ms idle`), idleMs);
      session.idleTimer.unref();
    });
  };

  /** Makes room for one more session; false when every session is busy. */
  const makeRoom = async (): Promise<boolean> => {
    if (sessions.size + opening < maxSessions) return true;
    const idle = [...sessions.values()].find((s) => s.active === 0 && !s.closing);
    if (!idle) return false;
    await retire(idle, `as the least recently used idle session (the cap of ${maxSessions} sessions was reached)`);
    return sessions.size + opening < maxSessions;
  };

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (!(await makeRoom())) {
      logger.warn(`refused a new session: ${maxSessions} sessions, all busy`);
      sendJsonRpcError(
        res,
        503,
        -32000,
        `Too many sessions: all ${maxSessions} are busy (LOCAL_MCP_HTTP_MAX_SESSIONS); retry later or end a session with DELETE`,
        { headers: { "retry-after": String(RETRY_AFTER_S) } },
      );
      return;
    }
    opening += 1;
    let created: CreatedServer | undefined;
    let session: Session | undefined;
    try {
      created = await factory();
      const server = created;
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          session = { id, transport, created: server, active: 0, lastUsed: Date.now() };
          sessions.set(id, session);
          track(session, res);
        },
      });
      transport.onclose = () => {
        if (session) void retire(session, "closed by the client");
      };
      await created.server.connect(transport);
      await writeWebResponse(await transport.handleRequest(webRequest(req, res, requestUrl(req), body), { parsedBody: body }), res);
    } finally {
      opening -= 1;
    }
    // The transport refused the initialize (a bad Accept or content type…): no session, nothing kept.
    if (!session && created) await created.cleanup();
  };

  const requestUrl = (req: IncomingMessage) => new URL(req.url ?? "/", `http://127.0.0.1:${port}`);

  // The 2026-07-28 era: one prepared server for the process, made on the first such request.
  let modern: { created: CreatedServer; handler: McpHttpHandler } | undefined;
  let modernOpening: Promise<{ created: CreatedServer; handler: McpHttpHandler }> | undefined;
  const modernHandler = () =>
    (modernOpening ??= (async () => {
      const created = await factory();
      const handler = createMcpHandler(() => created.instance({ era: "modern", perRequest: true }), {
        legacy: "reject",
        onerror: (error) => logger.debug(`http: ${error.message}`),
      });
      // Changes of watched resources reach the open subscriptions/listen streams.
      created.resourceWatch.onChange((change) => {
        if (change.kind === "updated") handler.notify.resourceUpdated(change.uri);
        else handler.notify.resourcesChanged();
      });
      modern = { created, handler };
      return modern;
    })().catch((error: unknown) => {
      modernOpening = undefined;
      throw error;
    }));

  /** Serves a POST whose body claims the 2026-07-28 era; false when it is 2025-era traffic. */
  const isModern = async (req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): Promise<boolean> => {
    const request = webRequest(req, res, url, body);
    if (await isLegacyRequest(request)) return false;
    const { handler, created } = await modernHandler();
    const message = body as { method?: unknown; params?: unknown };
    if (message.method === "subscriptions/listen") {
      // The listen's stream stays open while it listens: watch what it names until it closes.
      const release = watchListen(created.resourceWatch, message.params);
      res.once("close", release);
    }
    await writeWebResponse(await handler.fetch(request, { parsedBody: body }), res);
    return true;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refusal = checkLoopbackRequest(req, port);
    if (refusal) {
      logger.warn("refused request", { reason: refusal, host: req.headers.host, origin: req.headers.origin });
      sendJsonRpcError(res, 403, -32000, `Forbidden: ${refusal}`);
      return;
    }
    const url = requestUrl(req);
    if (url.pathname !== path) {
      sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${path}`);
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (req.method === "POST") {
      const body = await readJsonBody(req);
      if (!body.ok) {
        sendJsonRpcError(res, body.status, body.status === 400 ? ErrorCode.ParseError : -32000, body.message);
        return;
      }
      const checked = checkJsonRpcMessage(body.value);
      if (!checked.ok) {
        sendJsonRpcError(res, 400, ErrorCode.InvalidRequest, checked.reply?.error.message ?? `Invalid Request: ${checked.reason}`, {
          id: checked.reply?.id ?? null,
        });
        return;
      }
      if (await isModern(req, res, url, body.value)) return;
      if (existing && !existing.closing) {
        track(existing, res);
        await writeWebResponse(
          await existing.transport.handleRequest(webRequest(req, res, url, body.value), { parsedBody: body.value }),
          res,
        );
        return;
      }
      if (sessionId !== undefined) {
        sendJsonRpcError(res, 404, -32001, "Session not found: initialize a new session");
        return;
      }
      if (!isInitializeRequest(body.value)) {
        sendJsonRpcError(res, 400, -32000, "Bad request: no session; the first request must be initialize");
        return;
      }
      await openSession(req, res, body.value);
      return;
    }
    if (req.method === "GET" || req.method === "DELETE") {
      if (!existing || existing.closing) {
        sendJsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, "Bad request: unknown or missing mcp-session-id");
        return;
      }
      track(existing, res);
      await writeWebResponse(await existing.transport.handleRequest(webRequest(req, res, url)), res);
      return;
    }
    res.writeHead(405, { allow: "GET, POST, DELETE" }).end();
  };

  const httpServer = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error("HTTP request failed", { error });
      sendJsonRpcError(res, 500, -32603, "Internal server error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port, "127.0.0.1", () => resolve());
  });
  port = (httpServer.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}${path}`;
  // Written whatever the log level: supervisors and tests wait for it.
  process.stderr.write(`${options.name ?? "mcp-http"} ready on ${url}\n`);

  const close = async () => {
    await Promise.all([...sessions.values()].map((session) => retire(session, "at shutdown")));
    if (modern) {
      await modern.handler.close().catch((error: unknown) => logger.warn("closing the 2026-07-28 handler failed", { error }));
      await modern.created.cleanup().catch((error: unknown) => logger.error("cleanup failed", { error }));
    }
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  return { url, port, sessionCount: () => sessions.size, close };
}
