#!/usr/bin/env node
// CLI entry. The app has no tools yet: the bin says so instead of pretending (see status.ts).
import { runUnbuiltMain } from "@local-mcp/core";
import { APP } from "./status.js";

runUnbuiltMain({ bin: "catdoc", version: APP.version, summary: APP.summary, status: APP.status });
