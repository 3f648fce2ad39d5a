#!/usr/bin/env node
// The sample bin follows the light-entry contract of run-main.ts: only run-main is loaded
// statically; the server (SDK, zod) is loaded by the factory once the arguments ask for a server.
import { runServerMain } from "../server/run-main.js";
import { SAMPLE_APP_INFO } from "./sample-info.js";

await runServerMain({
  app: SAMPLE_APP_INFO,
  factory: async () => {
    const { createSampleServer } = await import("./sample-server.js");
    return () => createSampleServer(process.env);
  },
});
