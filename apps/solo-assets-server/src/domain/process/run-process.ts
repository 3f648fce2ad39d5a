/**
 * Runs a subprocess in its own process group with a time limit and an abort signal; on either,
 * the whole group is killed (SIGKILL to -pid), so children of the child die with it. Output is
 * captured up to a bound and can be followed line by line.
 */
import { spawn } from "node:child_process";

export interface RunProcessOptions {
  cwd?: string;
  /** The complete environment of the child (nothing is inherited). */
  env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed. */
  input?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes kept of each stream; the rest is dropped (default 1 MiB). */
  maxOutputBytes?: number;
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
}

export interface ProcessResult {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Set when the command could not be started (ENOENT…). */
  spawnError?: string;
}

function lineSplitter(onLine: ((line: string) => void) | undefined): (chunk: string, flush?: boolean) => void {
  let pending = "";
  return (chunk, flush = false) => {
    if (!onLine) return;
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      onLine(pending.slice(0, newline).replace(/\r$/, ""));
      pending = pending.slice(newline + 1);
    }
    if (flush && pending.length > 0) {
      onLine(pending);
      pending = "";
    }
  };
}

export function runProcess(command: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessResult> {
  const started = Date.now();
  const limit = options.maxOutputBytes ?? 1024 * 1024;
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ code: null, signal: null, stdout: "", stderr: "", timedOut: false, aborted: true, durationMs: 0 });
      return;
    }
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      // A new process group (and session): the group id is the child's pid.
      detached: process.platform !== "win32",
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let aborted = false;
    let spawnError: string | undefined;
    const outLines = lineSplitter(options.onStdoutLine);
    const errLines = lineSplitter(options.onStderrLine);

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        if (process.platform === "win32") child.kill("SIGKILL");
        else process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stdout.length < limit) stdout += chunk.slice(0, limit - stdout.length);
      outLines(chunk);
    });
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < limit) stderr += chunk.slice(0, limit - stderr.length);
      errLines(chunk);
    });
    child.stdin.on("error", () => undefined);
    child.once("error", (error) => {
      spawnError = error.message;
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      outLines("", true);
      errLines("", true);
      // The leader is gone; nothing it left behind in its group may live on.
      killGroup();
      resolve({
        code,
        signal,
        stdout,
        stderr,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The last `max` characters of a log, with a note when cut. */
export function tail(text: string, max = 4000): string {
  return text.length <= max ? text : `…(${text.length - max} characters cut)\n${text.slice(-max)}`;
}
