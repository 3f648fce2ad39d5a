// What `local-model-mcp` loads once its arguments ask for a server (mcp.ts imports this lazily, so
// `--help` never loads it): the config, the process's one runtime, and the per-session factory.
import { createLogger, type Env, type ServerFactory } from "@local-mcp/core";
import { APP_INFO } from "./app-info.js";
import { loadLocalModelConfig } from "./config.js";
import { createRuntime } from "./runtime.js";
import { createLocalModelServer } from "./server.js";

/** Reads the config (a bad value throws a ConfigError) and returns the factory of per-session servers. */
export function startLocalModelServer(env: Env, cwd: string): ServerFactory {
  const config = loadLocalModelConfig(env, cwd);
  const logger = createLogger({ name: APP_INFO.name, level: config.logLevel });
  // One runtime per process: HTTP sessions share the model, the regex worker and the stats.
  const runtime = createRuntime(config, logger);
  if (config.model.kind !== "none" && config.model.preload) runtime.model.preload();
  return () => createLocalModelServer(config, { logger, runtime });
}
