#!/usr/bin/env node
// The sample bin follows the light-entry contract of run-main.ts: only run-main is loaded
// statically; the server (SDK, zod) is loaded by the factory once the arguments ask for a server.
import { runServerMain } from "../server/run-main.js";
import { SAMPLE_SERVER_NAME, SAMPLE_SERVER_VERSION } from "./sample-info.js";

await runServerMain({
  bin: SAMPLE_SERVER_NAME,
  version: SAMPLE_SERVER_VERSION,
  summary: "the sample server of the local-mcp core (echo, wait)",
  factory: async () => {
    const { createSampleServer } = await import("./sample-server.js");
    return () => createSampleServer(process.env);
  },
});
