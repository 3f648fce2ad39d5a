#!/usr/bin/env node
// `catdoc`: the CatDoc command line (see cli/program.ts). The entry hands the process streams to
// the program, reads the environment through the app's config module when a command runs (not
// for --help), and sets the exit status; nothing else in the CLI touches the process.
import { APP_INFO } from "./app-info.js";
import { runCli } from "./cli/program.js";

// `catdoc list objects | head` closes stdout early: stop quietly instead of crashing.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

function waitForStop(): Promise<string> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
}

process.exitCode = await runCli(process.argv.slice(2), {
  io: { stdout: process.stdout, stderr: process.stderr },
  loadConfig: async () => (await import("./config.js")).loadCatDocConfig(process.env, process.cwd()),
  cwd: process.cwd(),
  version: APP_INFO.version,
  waitForStop,
  openUrl: async (url) => (await import("./cli/open-browser.js")).openInBrowser(url),
});
