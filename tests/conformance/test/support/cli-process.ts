/**
 * Starts a long-running CLI command (a dashboard) and waits for a line it prints on stdout or
 * stderr — its URL — never a sleep.
 */
import { spawn } from "node:child_process";
import { SERVER_NODE } from "./servers.js";

export interface CliProcess {
  /** The first match of the pattern, once it appeared. */
  match: RegExpExecArray;
  pid: number;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM, then the exit status (SIGKILL after 5 s). */
  stop: () => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startCli(
  entry: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string; ready: RegExp },
): Promise<CliProcess> {
  const child = spawn(SERVER_NODE, [entry, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${entry} ${args.join(" ")} printed no ready line within 60 s.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, 60_000);
    const check = () => {
      const found = options.ready.exec(stdout) ?? options.ready.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      check();
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      check();
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${entry} ${args.join(" ")} exited (code ${code}, signal ${signal}) before it was ready.\nstdout:\n${stdout}\nstderr:\n${stderr}`,
        ),
      );
    });
  });
  return {
    match,
    pid: child.pid ?? 0,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
