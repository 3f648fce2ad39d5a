/**
 * The dashboard: node:http on 127.0.0.1 only. Every request passes core's loopback check first
 * (Host a loopback name with our port, Origin — when sent — a loopback origin with our port:
 * DNS-rebinding and cross-site protection); changes also need the token this dashboard printed
 * when it started (compared in constant time). The page is static; it talks to /api/.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpError, checkLoopbackRequest, isToolError, sendAsset, sendJson } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import type { SoloServices } from "../services.js";
import { findRoute } from "./api-routes.js";
import type { DashboardContext } from "./api-routes.js";
import { APP_SCRIPT } from "./page/app-script.js";
import { APP_STYLES } from "./page/app-styles.js";
import { INDEX_HTML } from "./page/index-html.js";
import { DEFAULT_DASHBOARD_PORT } from "./dashboard-port.js";

export { DEFAULT_DASHBOARD_PORT };

export const DASHBOARD_HOST = "127.0.0.1";
export const TOKEN_HEADER = "x-solo-token";

export interface DashboardOptions {
  /** Builds the services; called again after a settings change. */
  openServices: () => SoloServices;
  /** TCP port on 127.0.0.1; 0 picks a free one (default 3918). */
  port?: number;
  /** Fixed token (tests); a random one otherwise. */
  token?: string;
  version: string;
  logger: Logger;
}

export interface DashboardHandle {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The URL with the token in its fragment (never sent to the server or in a Referer). */
  urlWithToken: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const PAGES: Record<string, { body: string; type: string }> = {
  "/": { body: INDEX_HTML, type: "text/html; charset=utf-8" },
  "/app.js": { body: APP_SCRIPT, type: "text/javascript; charset=utf-8" },
  "/app.css": { body: APP_STYLES, type: "text/css; charset=utf-8" },
};

function sameToken(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startDashboard(options: DashboardOptions): Promise<DashboardHandle> {
  const token = options.token ?? randomBytes(24).toString("base64url");
  let services = options.openServices();
  let unregister = services.registry.register({ kind: "dashboard", version: options.version });
  let port = options.port ?? DEFAULT_DASHBOARD_PORT;
  const context: DashboardContext = {
    services: () => services,
    reload: () => {
      const previous = services;
      services = options.openServices();
      void previous.dispose();
    },
    version: options.version,
    url: "",
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = checkLoopbackRequest(req, port);
    if (refused) {
      sendJson(res, 403, { error: { code: "FORBIDDEN", message: refused } });
      return;
    }
    const url = new URL(req.url ?? "/", `http://${DASHBOARD_HOST}:${port}`);
    const method = req.method ?? "GET";
    const page = PAGES[url.pathname];
    if (page && method === "GET") {
      sendAsset(res, page.body, page.type);
      return;
    }
    const found = findRoute(method, url.pathname);
    if (found === undefined) throw new HttpError(404, "NOT_FOUND", `No route ${url.pathname}.`);
    if (found === "method") throw new HttpError(405, "INVALID_INPUT", `${method} is not allowed on ${url.pathname}.`);
    if (found.route.mutates && !sameToken(req.headers[TOKEN_HEADER], token)) {
      sendJson(res, 403, {
        error: { code: "FORBIDDEN", message: "This change needs the dashboard token (open the URL printed by `solo-assets dashboard`)." },
      });
      return;
    }
    const body = await found.route.handle(found.match, req, url, context);
    sendJson(res, 200, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendJson(res, error.status, { error: { code: error.code, message: error.message } }, { headers: error.headers });
      } else if (isToolError(error)) {
        sendJson(res, error.status, { error: { code: error.code, message: error.message, suggestion: error.suggestion } });
      } else {
        options.logger.error("dashboard request failed", { url: req.url, error });
        sendJson(res, 500, { error: { code: "INTERNAL", message: "The dashboard failed; see its log." } });
      }
    });
  });
  port = await listen(server, port);
  const url = `http://${DASHBOARD_HOST}:${port}/`;
  context.url = url;
  unregister();
  unregister = services.registry.register({ kind: "dashboard", version: options.version, detail: url });
  options.logger.info("dashboard listening", { url, db: services.config.paths.dbPath });
  return {
    url,
    urlWithToken: `${url}#token=${token}`,
    port,
    token,
    close: async () => {
      unregister();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.dispose();
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${port} on ${DASHBOARD_HOST} is in use; choose another with --port (0 picks a free one).`)
          : error,
      );
    };
    server.once("error", onError);
    server.listen(port, DASHBOARD_HOST, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
