#!/usr/bin/env node
// stdio entry of mochi-mcp (`--http PORT` for Streamable HTTP): config from the environment, one
// runtime for the process (model preloaded in the background, progress on stderr), a server per session.
import { runServerMain } from "@local-mcp/core";
import { MOCHI_ENV_DOCS, parseMochiConfig } from "./config.js";
import { MochiRuntime } from "./runtime.js";
import { createMochiServer } from "./server.js";
import { MOCHI_SUMMARY, MOCHI_VERSION } from "./version.js";

await runServerMain({
  bin: "mochi-mcp",
  version: MOCHI_VERSION,
  summary: MOCHI_SUMMARY,
  env: MOCHI_ENV_DOCS,
  factory: () => {
    const runtime = new MochiRuntime(parseMochiConfig(process.env, process.cwd()));
    void runtime.start();
    return () => createMochiServer(runtime);
  },
});
