#!/usr/bin/env node
// solo-assets-mcp: the function library as an MCP server over stdio (or --http PORT).
// Start-up contract (issue #14): this file statically imports only core's light entry and tiny
// modules, so `--help` and `--version` load almost nothing; the server (SDK, zod, the library's
// code) is loaded by the factory, and DuckDB, the gate's tools and @google/genai only when a
// tool first needs them. test/start-up.test.ts keeps it that way.
import { runServerMain } from "@local-mcp/core/main";
import { APP_INFO } from "./app-info.js";

await runServerMain({
  app: APP_INFO,
  factory: async () => (await import("./server-main.js")).startSoloAssetsServer(process.env, process.cwd()),
});
