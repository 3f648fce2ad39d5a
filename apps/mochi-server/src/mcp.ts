#!/usr/bin/env node
// stdio entry of mochi-mcp (`--http PORT` for Streamable HTTP): config from the environment, one
// runtime for the process (model preloaded in the background, progress on stderr), a server per session.
// Only core's light main and data modules load here; the server (SDK, zod, tools) loads in `factory`,
// after the arguments asked for one, so `--help` stays instant and a bundle keeps it a lazy chunk.
import { runServerMain } from "@local-mcp/core/main";
import { APP_INFO } from "./app-info.js";

await runServerMain({
  app: APP_INFO,
  factory: async () => (await import("./server-main.js")).startMochiServer(process.env, process.cwd()),
});
