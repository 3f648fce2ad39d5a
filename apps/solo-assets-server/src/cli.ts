#!/usr/bin/env node
// `solo-assets`: the command line of the function library (see cli/program.ts). The entry hands
// the process streams to the program and sets the exit status; the configuration (zod, core) is
// loaded only when a command runs, so `--help` stays fast.
import { APP_INFO } from "./app-info.js";
import { runCli } from "./cli/program.js";

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), {
  io: { stdout: process.stdout, stderr: process.stderr },
  config: async () => (await import("./config.js")).loadSoloAssetsConfig(process.env, process.cwd()),
  version: APP_INFO.version,
  waitForStop: () =>
    new Promise((resolve) => {
      process.once("SIGINT", () => resolve("SIGINT"));
      process.once("SIGTERM", () => resolve("SIGTERM"));
    }),
});
