/**
 * What `solo-assets-mcp` loads once its arguments ask for a server (mcp.ts imports this lazily, so
 * `--help` never loads it): the configuration from the environment, the process's light context,
 * its services shared by every session, and the per-session factory. The library, the gate and
 * the embedder are built on the first tool call (server.ts), DuckDB is loaded by the first query,
 * and the gate's tools by the first save.
 */
import type { Env, ServerFactory } from "@local-mcp/core";
import { APP_INFO } from "./app-info.js";
import { loadSoloAssetsConfig } from "./config.js";
import { openSoloContext } from "./context.js";
import { createSoloAssetsServer, lazyServerServices } from "./server.js";

/**
 * Reads the configuration (a bad value throws a ConfigError), records this process in the
 * library's process registry with its transport (by default from the bin's arguments, as core's
 * runServerMain reads them) and returns the factory of per-session servers.
 */
export function startSoloAssetsServer(
  env: Env,
  cwd: string,
  transport: "stdio" | "http" = process.argv.includes("--http") ? "http" : "stdio",
): ServerFactory {
  const config = loadSoloAssetsConfig(env, cwd);
  const context = openSoloContext(config);
  context.registry.register({ kind: "mcp", version: APP_INFO.version, detail: transport });
  const { embedding, critic } = context.settings;
  context.logger.info("library", { db: config.paths.dbPath, embedder: `${embedding.backend} ${embedding.model}`, critic: critic.backend });
  // One set of services per process: HTTP sessions share the library, the gate and the embedder.
  const services = lazyServerServices(context);
  return () => createSoloAssetsServer(config, { services });
}
