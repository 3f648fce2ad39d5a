// What `mochi-mcp` loads once its arguments ask for a server (mcp.ts imports this lazily, so
// `--help` never loads it): the config, the process's one runtime, and the per-session factory.
import type { Env, ServerFactory } from "@local-mcp/core";
import { loadMochiConfig } from "./config.js";
import { MochiRuntime } from "./runtime.js";
import { createMochiServer } from "./server.js";

/** Reads the config (a bad value throws a ConfigError), starts the background work, returns the factory. */
export function startMochiServer(env: Env, cwd: string): ServerFactory {
  const config = loadMochiConfig(env, cwd);
  // One runtime per process: HTTP sessions share the catalog, its index and the model.
  const runtime = new MochiRuntime(config);
  void runtime.start();
  return () => createMochiServer(config, { runtime });
}
