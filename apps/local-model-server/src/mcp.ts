#!/usr/bin/env node
// MCP server entry: stdio by default, `--http PORT` for Streamable HTTP on 127.0.0.1.
// Only core's light main and data modules load here; the server (SDK, zod, tools) loads in `factory`,
// after the arguments asked for one, so `--help` stays instant and a bundle keeps it a lazy chunk.
import { runServerMain } from "@local-mcp/core/main";
import { APP_INFO } from "./app-info.js";

await runServerMain({
  app: APP_INFO,
  factory: async () => (await import("./server-main.js")).startLocalModelServer(process.env, process.cwd()),
});
