import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, isInitializeRequest, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { HttpConfigSchema } from "../config.js";
import { createLogger, type Logger } from "../logger.js";
import type { CreatedServer, ServerFactory } from "./create-server.js";
import { checkLoopbackRequest, readJsonBody } from "./http-guards.js";
import { checkJsonRpcMessage } from "./json-rpc-checks.js";

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
  transport: StreamableHTTPServerTransport;
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

/**
 * Serves the server over Streamable HTTP at http://127.0.0.1:PORT/mcp only.
 *
 * - Every request's Host must be exactly a loopback name with this port and its Origin, when
 *   sent, exactly a loopback origin with this port (DNS-rebinding protection, see
 *   `checkLoopbackRequest`); anything else gets 403 before a session is looked at.
 * - A POST body is checked before any server sees it: a batch array, an invalid id or another
 *   message that is not JSON-RPC gets 400 with -32600 (id null when the id could not be read).
 * - Each session gets its own server from the factory. A session with no request for
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
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
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
      await transport.handleRequest(req, res, body);
    } finally {
      opening -= 1;
    }
    // The transport refused the initialize (a bad Accept or content type…): no session, nothing kept.
    if (!session && created) await created.cleanup();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refusal = checkLoopbackRequest(req, port);
    if (refusal) {
      logger.warn("refused request", { reason: refusal, host: req.headers.host, origin: req.headers.origin });
      sendJsonRpcError(res, 403, -32000, `Forbidden: ${refusal}`);
      return;
    }
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
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
      if (existing && !existing.closing) {
        track(existing, res);
        await existing.transport.handleRequest(req, res, body.value);
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
      await existing.transport.handleRequest(req, res);
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
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  return { url, port, sessionCount: () => sessions.size, close };
}
