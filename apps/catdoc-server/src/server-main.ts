// What `catdoc-mcp` loads once its arguments ask for a server (mcp.ts imports this lazily, so
// `--help` never loads it): the config and the per-session factory.
import type { Env, ServerFactory } from "@local-mcp/core";
import { loadCatDocConfig } from "./config.js";
import { createCatDocServer } from "./server.js";

/**
 * Reads the config (a bad value throws a ConfigError) and returns the factory: a server per
 * session, each with its own access to the project (the project on disk is the shared state).
 */
export function startCatDocServer(env: Env, cwd: string): ServerFactory {
  const config = loadCatDocConfig(env, cwd);
  return () => createCatDocServer(config);
}
