import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createLogger, type Logger } from "../logger.js";
import type { CreatedServer, ServerFactory } from "./create-server.js";
import { checkLoopbackRequest, readJsonBody } from "./http-guards.js";

export interface RunHttpOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  logger?: Logger;
  /** Path of the MCP endpoint (default `/mcp`). */
  path?: string;
  /** Name for the ready line on stderr. */
  name?: string;
}

export interface HttpHandle {
  url: string;
  port: number;
  close: () => Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  created: CreatedServer;
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/**
 * Serves the server over Streamable HTTP at http://127.0.0.1:PORT/mcp only. Every request's Host
 * must be a loopback name with this port and its Origin, when sent, a loopback origin with this
 * port (DNS-rebinding protection); anything else gets 403. Each session gets its own server from
 * the factory.
 */
export async function runHttp(factory: ServerFactory, options: RunHttpOptions): Promise<HttpHandle> {
  const path = options.path ?? "/mcp";
  const sessions = new Map<string, Session>();
  const logger: Logger = options.logger ?? createLogger({ name: options.name ?? "mcp-http" });
  let port = options.port;

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
        sendJsonRpcError(res, body.status, -32700, body.message);
        return;
      }
      if (existing) {
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
      const created = await factory();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, created }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        void created.cleanup();
      };
      await created.server.connect(transport);
      await transport.handleRequest(req, res, body.value);
      return;
    }
    if (req.method === "GET" || req.method === "DELETE") {
      if (!existing) {
        sendJsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, "Bad request: unknown or missing mcp-session-id");
        return;
      }
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
    for (const { transport, created } of sessions.values()) {
      await transport.close().catch(() => undefined);
      await created.cleanup().catch(() => undefined);
    }
    sessions.clear();
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  return { url, port, close };
}
