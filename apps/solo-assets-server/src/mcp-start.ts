/**
 * What `solo-assets-mcp` loads once its arguments ask for a server (mcp.ts imports this lazily):
 * the configuration from the environment, the light context and the server factory. The library,
 * the gate and the embedder are built on the first tool call (server.ts), DuckDB is loaded by the
 * first query, and the gate's tools by the first save.
 */
import type { ServerFactory } from "@local-mcp/core";
import { APP_INFO } from "./app-info.js";
import { loadSoloAssetsConfig } from "./config.js";
import { openSoloContext } from "./context.js";
import { createSoloAssetsServer, lazyServerServices } from "./server.js";

export function openSoloServerFactory(transport: "stdio" | "http"): ServerFactory {
  const context = openSoloContext(loadSoloAssetsConfig(process.env, process.cwd()));
  context.registry.register({ kind: "mcp", version: APP_INFO.version, detail: transport });
  const { embedding, critic } = context.settings;
  context.logger.info("library", { db: context.config.paths.dbPath, embedder: `${embedding.backend} ${embedding.model}`, critic: critic.backend });
  const host = lazyServerServices(context);
  return () => createSoloAssetsServer(host);
}
