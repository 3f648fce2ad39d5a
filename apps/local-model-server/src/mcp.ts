#!/usr/bin/env node
// MCP server entry: stdio by default, `--http PORT` for Streamable HTTP on 127.0.0.1.
// Only core's light main and data modules load here; the server (SDK, zod, tools) loads in `factory`,
// after the arguments asked for one, so `--help` stays instant and a bundle keeps it a lazy chunk.
import { runServerMain } from "@local-mcp/core/main";
import { SERVER_NAME, SERVER_SUMMARY, SERVER_VERSION } from "./app-info.js";
import { ENV_VARS } from "./env-docs.js";

await runServerMain({
  bin: SERVER_NAME,
  version: SERVER_VERSION,
  summary: SERVER_SUMMARY,
  env: ENV_VARS,
  factory: async () => (await import("./server-main.js")).startLocalModelServer(process.env, process.cwd()),
});
