import { parseArgs } from "node:util";
import { parseHttpConfig, type HttpConfig } from "../config.js";
import { createLogger } from "../logger.js";
import type { ServerFactory } from "./create-server.js";
import { runStdio } from "./run-stdio.js";
import { installStdoutGuard } from "./stdout-guard.js";

export interface EnvVarDoc {
  name: string;
  description: string;
}

export interface ServerMainOptions {
  /** The bin's name, e.g. `catdoc-mcp`. */
  bin: string;
  version: string;
  summary: string;
  /** Builds the server; called after argument parsing so `--help` never loads anything. */
  factory: () => ServerFactory | Promise<ServerFactory>;
  /** Variables the server reads, for `--help`. */
  env?: readonly EnvVarDoc[];
  argv?: readonly string[];
}

const COMMON_ENV: readonly EnvVarDoc[] = [
  { name: "LOCAL_MCP_RESPONSE_LEVEL", description: "default response level: minimal | standard | full (default minimal)" },
  { name: "LOCAL_MCP_LOG_LEVEL", description: "stderr log level: debug | info | warn | error | silent (default info)" },
  { name: "LOCAL_MCP_HTTP_MAX_SESSIONS", description: "--http: most sessions at once; a new one closes the least recently used idle one, or gets 503 when all are busy (default 100)" },
  { name: "LOCAL_MCP_HTTP_SESSION_IDLE_MS", description: "--http: a session with no request for this long is closed (default 1800000, 30 min)" },
];

export function serverUsage(options: ServerMainOptions): string {
  const env = [...COMMON_ENV, ...(options.env ?? [])];
  const width = Math.max(...env.map((e) => e.name.length)) + 2;
  return [
    `${options.bin} ${options.version} — ${options.summary}`,
    "",
    "Usage:",
    `  ${options.bin}              serve MCP over stdio (what an MCP client such as Claude Code runs)`,
    `  ${options.bin} --http PORT  serve MCP over Streamable HTTP at http://127.0.0.1:PORT/mcp (loopback only)`,
    `  ${options.bin} --help       show this help`,
    `  ${options.bin} --version    print the version`,
    "",
    "Environment:",
    ...env.map((e) => `  ${e.name.padEnd(width)}${e.description}`),
    "",
    "Logs go to stderr; stdout carries only MCP JSON-RPC.",
    "",
  ].join("\n");
}

/** The whole `main` of a `*-mcp` bin: `--help`, `--version`, `--http PORT`, else stdio. */
export async function runServerMain(options: ServerMainOptions): Promise<void> {
  const logger = createLogger({ name: options.bin });
  let values: { help?: boolean; version?: boolean; http?: string };
  try {
    ({ values } = parseArgs({
      args: [...(options.argv ?? process.argv.slice(2))],
      options: { help: { type: "boolean", short: "h" }, version: { type: "boolean" }, http: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`${options.bin}: ${(error as Error).message}\nRun '${options.bin} --help' for usage.\n`);
    process.exitCode = 2;
    return;
  }
  if (values.help) {
    process.stdout.write(serverUsage(options));
    return;
  }
  if (values.version) {
    process.stdout.write(`${options.version}\n`);
    return;
  }
  // From here on the process is a server: console.* and process.stdout go to stderr, and only
  // the stdio transport can write to the real stdout (a template's {{log}} cannot forge an answer).
  installStdoutGuard();
  let factory: ServerFactory;
  try {
    factory = await options.factory();
  } catch (error) {
    process.stderr.write(`${options.bin}: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  if (values.http !== undefined) {
    const port = Number(values.http);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`${options.bin}: --http needs a port number (0-65535), got '${values.http}'\n`);
      process.exitCode = 2;
      return;
    }
    // Loaded only when asked for: the HTTP stack costs ~25 ms of start-up a stdio server never needs.
    const { runHttp } = await import("./run-http.js");
    let limits: HttpConfig;
    try {
      limits = parseHttpConfig(process.env);
    } catch (error) {
      process.stderr.write(`${options.bin}: ${(error as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    const handle = await runHttp(factory, { port, logger, name: options.bin, ...limits });
    const stop = () => void handle.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    return;
  }
  await runStdio(factory, { logger });
}
