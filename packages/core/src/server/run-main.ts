/**
 * The `main` of every `*-mcp` bin, and the light entry of core (`@local-mcp/core/main`).
 *
 * Contract for apps (issue #14, start fast):
 * - An app's mcp.ts statically imports only `@local-mcp/core/main` and its leaf `app-info.ts`
 *   (the app's `AppInfo`; no zod, no config parsing at import).
 * - Its `factory` loads the rest on demand:
 *     factory: async () => (await import("./server-main.js")).start<App>Server(process.env, process.cwd())
 *   so `*-mcp --help` and `--version` load almost nothing, and a stdio start loads only what
 *   `initialize` needs (heavy libraries load when a tool first needs them).
 * - This module's static imports are node builtins and tiny core modules only: no MCP SDK, zod,
 *   ajv or logger config. run-stdio, run-http, the logger and the config schemas are loaded with
 *   `import()` after the arguments are parsed (a bundler turns each into a lazily loaded chunk).
 *   A test (packages/core/test/light-main.test.ts) keeps it that way.
 */
import { parseArgs } from "node:util";
import type { ServerFactory } from "./create-server.js";
import { installStdoutGuard } from "./stdout-guard.js";

export interface EnvVarDoc {
  name: string;
  description: string;
}

/**
 * Who an app is: every app exports one from its `app-info.ts` as `APP_INFO` (version and summary read
 * from its package.json), for its bins' `--help`/`--version` and its server's initialize answer.
 */
export interface AppInfo {
  /** The server bin and the name in MCP initialize, e.g. `catdoc-mcp`. */
  readonly name: string;
  /** Human-readable name in MCP initialize (serverInfo.title). */
  readonly title: string;
  readonly version: string;
  /** One line for `--help`. */
  readonly summary: string;
  /** Variables the app reads, for `--help`. */
  readonly env: readonly EnvVarDoc[];
}

export interface ServerMainOptions {
  app: AppInfo;
  /** Builds the server; called after argument parsing so `--help` never loads anything. */
  factory: () => ServerFactory | Promise<ServerFactory>;
  argv?: readonly string[];
}

const COMMON_ENV: readonly EnvVarDoc[] = [
  { name: "LOCAL_MCP_RESPONSE_LEVEL", description: "default response level: minimal | standard | full (default minimal)" },
  { name: "LOCAL_MCP_LOG_LEVEL", description: "stderr log level: debug | info | warn | error | silent (default info)" },
  {
    name: "LOCAL_MCP_RESOURCE_POLL_MS",
    description: "how often subscribed resources are compared for change notifications, 50–3600000 ms (default 2000)",
  },
  {
    name: "LOCAL_MCP_HTTP_MAX_SESSIONS",
    description:
      "--http: most sessions at once; a new one closes the least recently used idle one, or gets 503 when all are busy (default 100)",
  },
  {
    name: "LOCAL_MCP_HTTP_SESSION_IDLE_MS",
    description: "--http: a session with no request for this long is closed (default 1800000, 30 min)",
  },
];

/** The host `--http` listens on (loopback only). */
const HTTP_HOST = "127.0.0.1";

export function serverUsage(app: AppInfo): string {
  const env = [...COMMON_ENV, ...app.env];
  const width = Math.max(...env.map((e) => e.name.length)) + 2;
  return [
    `${app.name} ${app.version} — ${app.summary}`,
    "",
    "Usage:",
    `  ${app.name}              serve MCP over stdio (what an MCP client such as Claude Code runs)`,
    `  ${app.name} --http PORT  serve MCP over Streamable HTTP at http://${HTTP_HOST}:PORT/mcp (loopback only)`,
    `  ${app.name} --help       show this help`,
    `  ${app.name} --version    print the version`,
    "",
    "Environment:",
    ...env.map((e) => `  ${e.name.padEnd(width)}${e.description}`),
    "",
    "Exit status: 0 after a clean shutdown, 1 when the server cannot start (bad configuration, --http port in use), 2 for bad usage.",
    "Logs go to stderr; stdout carries only MCP JSON-RPC.",
    "",
  ].join("\n");
}

/**
 * The one line `--http PORT` prints when the port cannot be bound (in use, or not allowed),
 * or undefined for any other error.
 */
export function listenFailureLine(bin: string, port: number, error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE") {
    return `${bin}: ADDRESS_IN_USE: port ${port} on ${HTTP_HOST} is already in use — choose another with --http PORT (or stop what holds it)`;
  }
  if (code === "EACCES" || code === "EPERM") {
    return `${bin}: FORBIDDEN: no permission to listen on port ${port} on ${HTTP_HOST} — ports below 1024 need privileges; choose one from 1024 to 65535 with --http PORT`;
  }
  return undefined;
}

/** The whole `main` of a `*-mcp` bin: `--help`, `--version`, `--http PORT`, else stdio. */
export async function runServerMain(options: ServerMainOptions): Promise<void> {
  const { app } = options;
  let values: { help?: boolean; version?: boolean; http?: string };
  try {
    ({ values } = parseArgs({
      args: [...(options.argv ?? process.argv.slice(2))],
      options: { help: { type: "boolean", short: "h" }, version: { type: "boolean" }, http: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`${app.name}: ${(error as Error).message}\nRun '${app.name} --help' for usage.\n`);
    process.exitCode = 2;
    return;
  }
  if (values.help) {
    process.stdout.write(serverUsage(app));
    return;
  }
  if (values.version) {
    process.stdout.write(`${app.version}\n`);
    return;
  }
  let port: number | undefined;
  if (values.http !== undefined) {
    port = Number(values.http);
    if (values.http.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(
        `${app.name}: --http needs a port number (0-65535), got '${values.http}'\nRun '${app.name} --help' for usage.\n`,
      );
      process.exitCode = 2;
      return;
    }
  }
  // From here on the process is a server: console.* and process.stdout go to stderr, and only
  // the stdio transport can write to the real stdout (a template's {{log}} cannot forge an answer).
  installStdoutGuard();
  // Loaded only now (each its own lazy chunk in a bundle): the logger, then the runner needed.
  const { createLogger } = await import("../logger.js");
  const logger = createLogger({ name: app.name });
  let factory: ServerFactory;
  try {
    factory = await options.factory();
  } catch (error) {
    process.stderr.write(`${app.name}: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  if (port === undefined) {
    const { runStdio } = await import("./run-stdio.js");
    await runStdio(factory, { logger });
    return;
  }
  // The HTTP stack and its limits' schema cost start-up time a stdio server never needs.
  const [{ runHttp }, { parseHttpConfig }] = await Promise.all([import("./run-http.js"), import("../config.js")]);
  let limits: Awaited<ReturnType<typeof parseHttpConfig>>;
  try {
    limits = parseHttpConfig(process.env);
  } catch (error) {
    process.stderr.write(`${app.name}: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  let handle: Awaited<ReturnType<typeof runHttp>>;
  try {
    handle = await runHttp(factory, { port, logger, name: app.name, ...limits });
  } catch (error) {
    const line = listenFailureLine(app.name, port, error);
    if (line === undefined) throw error;
    process.stderr.write(`${line}\n`);
    // The factory may have started work (a model preload, a database): never stay half-started.
    process.exit(1);
  }
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
