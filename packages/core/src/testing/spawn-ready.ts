import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export interface SpawnReadyOptions {
  command: string;
  args?: readonly string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** What the ready line on stderr looks like. */
  readyPattern: RegExp;
  readyTimeoutMs?: number;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ReadyProcess {
  child: ChildProcessWithoutNullStreams;
  /** The ready pattern's match on stderr (its groups: a URL, a port...). */
  ready: RegExpMatchArray;
  stderr: () => string;
  exited: Promise<ExitStatus>;
}

/**
 * Spawns a server bin and resolves once its ready line appears on stderr (never a sleep); rejects
 * with its stderr when it exits first or prints no ready line in time (the child is then killed).
 */
export async function spawnUntilReady(options: SpawnReadyOptions): Promise<ReadyProcess> {
  const child = spawn(options.command, [...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env } as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const timeoutMs = options.readyTimeoutMs ?? 15_000;

  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${options.command} printed no ready line within ${timeoutMs} ms. stderr:\n${stderr}`));
    }, timeoutMs);
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      const match = options.readyPattern.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${options.command} exited (code ${code}, signal ${signal}) before it was ready. stderr:\n${stderr}`));
    });
  });
  return { child, ready, stderr: () => stderr, exited };
}
