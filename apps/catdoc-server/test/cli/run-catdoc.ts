/**
 * Runs the built `catdoc` bin (dist/cli.js) as a real process. Build first:
 * `pnpm --filter @local-mcp/catdoc-server build` (the package's build script: the esbuild bundle).
 */
import { execFile, spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const ASSETS = fileURLToPath(new URL("../../dist/dashboard/assets/index.html", import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(CLI) || !existsSync(ASSETS)) {
    throw new Error(`${CLI} or the dashboard assets are missing: build the package first (pnpm --filter @local-mcp/catdoc-server build)`);
  }
}

export interface CatdocRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of the child: ours without CATDOC_PROJECT_PATH, plus `extra`. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!("CATDOC_PROJECT_PATH" in extra)) delete env["CATDOC_PROJECT_PATH"];
  return env;
}

export function catdoc(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<CatdocRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: options.cwd, env: childEnv(options.env), maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface RunningCatdoc {
  child: ChildProcessWithoutNullStreams;
  /** What it has written to stderr so far. */
  stderr(): string;
  stdout(): string;
  /** Resolves with the first match of `pattern` in stderr, or rejects after `timeoutMs` or when the process exits. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
}

/** Starts a long-running command (dashboard, mcp). */
export function startCatdoc(args: readonly string[], options: { cwd: string }): RunningCatdoc {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: childEnv(), stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  let stdout = "";
  const listeners = new Set<() => void>();
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const listener of listeners) listener();
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const exited = new Promise<number | string>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const waitForStderr = (pattern: RegExp, timeoutMs = 15_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = stderr.match(pattern);
        if (match === null) return;
        done();
        resolve(match);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${pattern} on stderr within ${timeoutMs} ms; stderr so far:\n${stderr}`));
      }, timeoutMs);
      const onExit = () => {
        done();
        reject(new Error(`process exited before ${pattern} appeared on stderr:\n${stderr}`));
      };
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off("exit", onExit);
      };
      listeners.add(check);
      child.once("exit", onExit);
      check();
    });
  return { child, stderr: () => stderr, stdout: () => stdout, waitForStderr, exited };
}
