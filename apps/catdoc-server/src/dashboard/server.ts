/**
 * The dashboard's HTTP server: node:http on 127.0.0.1 only. Every request passes core's
 * loopback check first (Host must be a loopback name with our port, Origin — when sent — a
 * loopback origin with our port: DNS-rebinding and cross-site protection), then goes to the
 * REST API under `/api/` or to the page's static files. Nothing here changes the project.
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ERROR_STATUS,
  HttpError,
  checkLoopbackRequest,
  isToolError,
  readJsonObject,
  sendAsset,
  sendJson,
  silentLogger,
} from "@local-mcp/core";
import type { ErrorCode, Logger } from "@local-mcp/core";
import { CatDocConflictError, isCatDocError } from "../domain/index.js";
import { DASHBOARD_HOST, DEFAULT_DASHBOARD_PORT } from "../defaults.js";
import type { CatDocStore } from "../domain/index.js";
import { ApiParams, findHandler } from "./api-routes.js";
import { EXPORT_PATH_PREFIX, sendExport } from "./export-route.js";
import { loadStaticAssets } from "./static-assets.js";
import type { StaticAsset } from "./static-assets.js";

/** The port `catdoc dashboard` uses when neither --port nor config.yaml names one. */
export { DASHBOARD_HOST, DEFAULT_DASHBOARD_PORT };

/**
 * An error answer of the API. It keeps the original dashboard's `error` string (its clients read
 * `data.error`) and adds `code` (core's error codes), `status`, and a `suggestion` when known.
 */
export interface ApiErrorBody {
  error: string;
  code: ErrorCode;
  status: number;
  suggestion?: string;
  details?: Record<string, unknown>;
}

export interface DashboardOptions {
  store: CatDocStore;
  /** TCP port on 127.0.0.1; 0 picks a free one (default DEFAULT_DASHBOARD_PORT). */
  port?: number;
  logger?: Logger;
}

export interface DashboardHandle {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startDashboard(options: DashboardOptions): Promise<DashboardHandle> {
  const logger = options.logger ?? silentLogger;
  const assets = await loadStaticAssets();
  const requested = options.port ?? DEFAULT_DASHBOARD_PORT;
  let port = requested;
  const server = createServer((req, res) => {
    handle(req, res, { store: options.store, assets, port, logger }).catch((error: unknown) => {
      logger.error("request failed", { url: req.url, error });
      if (!res.headersSent) sendJson(res, 500, errorResponse(error).body);
      else res.destroy();
    });
  });
  port = await listen(server, requested);
  const url = `http://${DASHBOARD_HOST}:${port}/`;
  logger.info("dashboard listening", { url, root: options.store.paths.root });
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") {
        reject(new CatDocConflictError(`Port ${port} on ${DASHBOARD_HOST} is already in use; choose another port (--port)`, { port }));
      } else if (error.code === "EACCES") {
        reject(new CatDocConflictError(`Not allowed to listen on port ${port}; choose a port above 1023 (--port)`, { port }));
      } else {
        reject(error);
      }
    };
    server.once("error", onError);
    server.listen(port, DASHBOARD_HOST, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

interface Context {
  store: CatDocStore;
  assets: Map<string, StaticAsset>;
  port: number;
  logger: Logger;
}

async function handle(req: IncomingMessage, res: ServerResponse, context: Context): Promise<void> {
  const method = req.method ?? "GET";
  const headOnly = method === "HEAD";
  const refused = checkLoopbackRequest(req, context.port);
  if (refused !== undefined) {
    context.logger.warn("request refused", { reason: refused, url: req.url });
    sendJson(res, 403, { error: `Forbidden: ${refused}`, code: "FORBIDDEN", status: 403 }, { headOnly });
    return;
  }
  let url: URL;
  try {
    url = new URL(req.url ?? "/", `http://${DASHBOARD_HOST}:${context.port}`);
  } catch {
    sendJson(res, 400, { error: "Malformed request URL", code: "INVALID_INPUT", status: 400 }, { headOnly });
    return;
  }
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
    await handleApi(req, res, url, context, headOnly);
    return;
  }
  if (url.pathname.startsWith(EXPORT_PATH_PREFIX)) {
    try {
      await sendExport(res, method, url, context.store);
    } catch (error) {
      const answer = errorResponse(error);
      if (answer.internal) context.logger.error("export failed", { url: req.url, error });
      sendJson(res, answer.status, answer.body, { headOnly, headers: answer.headers });
    }
    return;
  }
  const asset = context.assets.get(url.pathname);
  if (asset === undefined || (method !== "GET" && method !== "HEAD")) {
    const status = asset === undefined ? 404 : 405;
    sendJson(
      res,
      status,
      {
        error: status === 404 ? "Not found" : `Method ${method} not allowed`,
        code: status === 404 ? "NOT_FOUND" : "INVALID_INPUT",
        status,
      },
      { headOnly },
    );
    return;
  }
  sendAsset(res, asset.body, asset.contentType, { headOnly });
}

async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, context: Context, headOnly: boolean): Promise<void> {
  try {
    let segments: string[];
    try {
      segments = url.pathname
        .slice("/api".length)
        .split("/")
        .filter((part) => part !== "")
        .map(decodeURIComponent);
    } catch {
      throw new HttpError(400, "INVALID_INPUT", "Malformed percent-encoding in the path");
    }
    const method = req.method ?? "GET";
    const { handler, id } = findHandler(method, segments);
    const params =
      method === "POST" ? new ApiParams(await readJsonObject(req, { emptyAsObject: true })) : ApiParams.fromQuery(url.searchParams);
    const body = await handler({ params, store: context.store }, id);
    sendJson(res, 200, body, { headOnly });
  } catch (error) {
    const answer = errorResponse(error);
    if (answer.internal) context.logger.error("API request failed", { url: req.url, error });
    sendJson(res, answer.status, answer.body, { headOnly, headers: answer.headers });
  }
}

/** The error body and status for anything a handler threw; `internal` is set for bugs. */
function errorResponse(error: unknown): {
  status: number;
  body: ApiErrorBody;
  headers: Readonly<Record<string, string>>;
  internal: boolean;
} {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      body: { error: error.message, code: error.code, status: error.status },
      headers: error.headers,
      internal: false,
    };
  }
  if (isCatDocError(error) || isToolError(error)) {
    const status = ERROR_STATUS[error.code];
    const body: ApiErrorBody = { error: error.message, code: error.code, status };
    if (error.suggestion !== undefined && error.suggestion !== "") body.suggestion = error.suggestion;
    if (error.details !== undefined && Object.keys(error.details).length > 0) body.details = error.details;
    return { status, body, headers: {}, internal: false };
  }
  return {
    status: 500,
    body: { error: "Internal error in the dashboard server (see its log)", code: "INTERNAL", status: 500 },
    headers: {},
    internal: true,
  };
}
