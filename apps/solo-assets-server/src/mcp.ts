#!/usr/bin/env node
// solo-assets-mcp: the function library as an MCP server over stdio (or --http PORT).
import { runServerMain } from "@local-mcp/core";
import { APP_SUMMARY, APP_VERSION } from "./app-info.js";
import { SOLO_ENV_DOCS, soloConfigFromProcess } from "./config.js";
import { SERVER_NAME, createSoloAssetsServer } from "./server.js";
import { openSoloServices } from "./services.js";

await runServerMain({
  bin: SERVER_NAME,
  version: APP_VERSION,
  summary: APP_SUMMARY,
  env: SOLO_ENV_DOCS,
  factory: () => {
    const services = openSoloServices(soloConfigFromProcess());
    services.registry.register({ kind: "mcp", version: APP_VERSION, detail: process.argv.includes("--http") ? "http" : "stdio" });
    services.logger.info("library", { db: services.config.paths.dbPath, embedder: services.embedder.model, critic: services.settings.critic.backend });
    return () => createSoloAssetsServer(services);
  },
});
