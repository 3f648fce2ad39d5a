#!/usr/bin/env node
// MCP server entry: stdio by default, `--http PORT` for Streamable HTTP on 127.0.0.1.
import { createLogger, runServerMain } from "@local-mcp/core";
import { ENV_VARS, loadConfig } from "./config.js";
import { createRuntime } from "./runtime.js";
import { createLocalModelServer, SERVER_NAME, SERVER_SUMMARY, SERVER_VERSION } from "./server.js";

await runServerMain({
  bin: SERVER_NAME,
  version: SERVER_VERSION,
  summary: SERVER_SUMMARY,
  env: ENV_VARS,
  factory: () => {
    const config = loadConfig({ env: process.env, cwd: process.cwd() });
    const logger = createLogger({ name: SERVER_NAME, level: config.logLevel });
    // One runtime per process: HTTP sessions share the model, the regex worker and the stats.
    const runtime = createRuntime(config, logger);
    if (config.model.kind !== "none" && config.model.preload) runtime.model.preload();
    return () => createLocalModelServer(config, { logger, runtime });
  },
});
