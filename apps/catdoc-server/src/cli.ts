#!/usr/bin/env node
// `catdoc`: the CatDoc command line (see cli/program.ts). The entry reads the environment
// through the app's config module, hands the process streams to the program, and sets the
// exit status; nothing else in the CLI touches the process.
import { createRequire } from "node:module";
import { runCli } from "./cli/program.js";
import { loadCatDocConfig } from "./config.js";
import type { CatDocConfig } from "./config.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

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

async function main(): Promise<number> {
  let config: CatDocConfig;
  try {
    config = loadCatDocConfig(process.env, process.cwd());
  } catch (error) {
    process.stderr.write(`catdoc: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  return runCli(process.argv.slice(2), {
    io: { stdout: process.stdout, stderr: process.stderr },
    config,
    cwd: process.cwd(),
    version,
    waitForStop,
  });
}

process.exitCode = await main();
