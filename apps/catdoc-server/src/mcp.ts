#!/usr/bin/env node
// catdoc-mcp: the CatDoc MCP server over stdio (or --http PORT); core's runServerMain handles
// --help and --version too. Start-up (issue #14): only core's light main and the leaf app-info.ts
// load here; the server (MCP SDK, zod, the tools' schemas) loads in `factory`, once the arguments
// ask for a server, and the domain's heavy parts (yaml, MiniSearch, the validators, the importer)
// when a tool first needs them. test/mcp/start-up.test.ts keeps it that way.
import { runServerMain } from "@local-mcp/core/main";
import { APP_INFO } from "./app-info.js";

await runServerMain({
  app: APP_INFO,
  factory: async () => (await import("./server-main.js")).startCatDocServer(process.env, process.cwd()),
});
