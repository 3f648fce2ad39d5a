#!/usr/bin/env node
import { runServerMain } from "../server/run-main.js";
import { createSampleServer, SAMPLE_SERVER_VERSION } from "./sample-server.js";

await runServerMain({
  bin: "local-mcp-sample",
  version: SAMPLE_SERVER_VERSION,
  summary: "the sample server of the local-mcp core (echo, wait)",
  factory: () => () => createSampleServer(process.env),
});
