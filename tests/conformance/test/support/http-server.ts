/**
 * Starts a `*-mcp` bin with `--http 0` (the OS picks a free port) and reads the URL from its ready
 * line on stderr — `<bin> ready on http://127.0.0.1:PORT/mcp` — never a sleep.
 */
import { spawn } from "node:child_process";
import { SERVER_NODE, type ServerUnderTest } from "./servers.js";

export interface HttpServerProcess {
  url: string;
  stderr: () => string;
  /** What the process wrote to stdout (an HTTP server has nothing to write there). */
  stdout: () => string;
  /** SIGTERM, then the exit status (SIGKILL after 5 s). */
  stop: () => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const READY = /ready on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/;

export async function startHttpServer(server: ServerUnderTest, env: Record<string, string>, cwd: string): Promise<HttpServerProcess> {
  const child = spawn(SERVER_NODE, [server.entry, "--http", "0"], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${server.name} --http 0 printed no ready line within 30 s. stderr:\n${stderr}`));
    }, 30_000);
    child.stderr.on("data", () => {
      const match = READY.exec(stderr);
      if (match?.[1] !== undefined && Number(match[2]) > 0) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${server.name} --http 0 exited (code ${code}, signal ${signal}) before it was ready. stderr:\n${stderr}`));
    });
  });

  return {
    url,
    stderr: () => stderr,
    stdout: () => stdout,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
