/**
 * The stdout guard of a server process. Over stdio, stdout is the protocol channel: any line
 * printed there is read by the client as JSON-RPC, so text a library prints — or that a user's
 * template makes it print (Handlebars' `{{log}}` calls console.info) — could be taken as an
 * answer. Once installed, for the rest of the process:
 *
 * - every `console` method (log, info, debug, dir, table, group, count, time, trace, warn,
 *   error, …) writes to stderr;
 * - `process.stdout` is process.stderr, so code that writes to `process.stdout` — a
 *   `new console.Console(process.stdout)`, a worker thread's console (Node pipes it to
 *   `process.stdout`), a library's progress output — lands on stderr;
 * - the real stdout is kept for the stdio transport alone (`protocolStdout()`).
 *
 * What it cannot reach: a reference to the real stdout taken before it was installed, and raw
 * writes to file descriptor 1 (`fs.writeSync(1, …)`, native code). Nothing a template or a
 * tool's input controls can do either.
 */
import { Console } from "node:console";

let realStdout: NodeJS.WriteStream | undefined;

/** Installs the guard (idempotent). Call it once, before the server's code is loaded and run. */
export function installStdoutGuard(): void {
  if (realStdout) return;
  realStdout = process.stdout;
  const stderr = process.stderr;
  const toStderr = new Console({ stdout: stderr, stderr });
  const methods = console as unknown as Record<string, unknown>;
  const replacements = toStderr as unknown as Record<string, unknown>;
  for (const key of Object.keys(methods)) {
    // Console instances bind their methods, so each replacement keeps its own state (groups, counts, timers).
    if (key !== "Console" && typeof methods[key] === "function" && typeof replacements[key] === "function")
      methods[key] = replacements[key];
  }
  Object.defineProperty(process, "stdout", { configurable: true, enumerable: true, get: () => stderr });
}

/**
 * The stream the stdio transport writes JSON-RPC to: the real stdout, which nothing else in a
 * guarded process can reach; plain `process.stdout` when the guard is not installed (tests).
 */
export function protocolStdout(): NodeJS.WriteStream {
  return realStdout ?? process.stdout;
}

/** Whether the guard is installed in this process. */
export function stdoutGuardInstalled(): boolean {
  return realStdout !== undefined;
}
