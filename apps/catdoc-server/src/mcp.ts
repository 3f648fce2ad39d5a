#!/usr/bin/env node
// catdoc-mcp: the CatDoc MCP server over stdio (or --http PORT). See mcp-main.ts.
import { runCatDocMcp } from "./mcp-main.js";

await runCatDocMcp();
