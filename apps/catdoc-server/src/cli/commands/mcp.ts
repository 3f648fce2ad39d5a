/**
 * `catdoc mcp`: the CatDoc MCP server over stdio (what `catdoc-mcp` runs), or over Streamable
 * HTTP with `--http PORT`, on the project of `--project`; with `--dashboard`, the dashboard too,
 * its URL on stderr. stdout carries JSON-RPC only from here on.
 *
 * The MCP server starts first: when it cannot (its --http port is taken), the process ends with
 * one line and exit 1 before any dashboard exists, so it never hangs serving only the dashboard.
 * The two never ask for one port: the same port given to both is bad usage (exit 2), and a
 * dashboard port taken from the default or config.yaml that equals --http moves to a free port.
 */
import { runServerMain } from "@local-mcp/core/main";
import { APP_INFO } from "../../app-info.js";
import { DEFAULT_DASHBOARD_PORT } from "../../defaults.js";
import type { DashboardHandle } from "../../dashboard/index.js";
import { CliUsageError, failureMessage } from "../cli-errors.js";
import type { CommandContext } from "../command-context.js";
import { portNumber } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface McpOptions {
  dashboard?: boolean;
  port?: number;
  http?: number;
}

/** The dashboard's port: --port, else config.yaml's dashboard.port, else the default — never the MCP endpoint's. */
async function dashboardPort(context: CommandContext, options: McpOptions): Promise<number> {
  if (options.port !== undefined) return options.port;
  // An uninitialized project (catdoc_init may create it later) still gets a dashboard.
  const configured = await context
    .store()
    .then(
      (store) => store.load().then((project) => project.config.dashboard?.port),
      () => undefined,
    )
    .catch(() => undefined);
  const port = configured ?? DEFAULT_DASHBOARD_PORT;
  if (port !== 0 && port === options.http) {
    context.note(
      `catdoc: the dashboard's port ${port} is the MCP endpoint's (--http): the dashboard takes a free port instead (choose one with --port)`,
    );
    return 0;
  }
  return port;
}

/** The dashboard beside the MCP server. Failing to start it is reported, not fatal: the MCP server still runs. */
async function startBesideMcp(
  context: CommandContext,
  options: McpOptions,
  registry: CommandRegistry,
): Promise<DashboardHandle | undefined> {
  const port = await dashboardPort(context, options);
  try {
    const [{ createLogger }, { startDashboard }, store] = await Promise.all([
      import("@local-mcp/core"),
      import("../../dashboard/server.js"),
      context.store(),
    ]);
    const logger = createLogger({ name: "catdoc-dashboard", level: "warn", write: (line) => void registry.setup.io.stderr.write(line) });
    const dashboard = await startDashboard({ store, port, logger });
    context.note(`CatDoc dashboard: ${dashboard.url}`);
    return dashboard;
  } catch (error) {
    context.note(`catdoc: dashboard not started: ${failureMessage(error)}`);
    return undefined;
  }
}

export function registerMcpCommand(registry: CommandRegistry): void {
  const { program, action } = registry;
  program
    .command("mcp")
    .description("run the CatDoc MCP server over stdio (as catdoc-mcp does), optionally with the dashboard")
    .option("--dashboard", "also serve the dashboard on 127.0.0.1 and print its URL on stderr")
    .option(
      "--port <port>",
      `dashboard port (default: dashboard.port of config.yaml, else ${DEFAULT_DASHBOARD_PORT}; never the --http port)`,
      portNumber,
    )
    .option("--http <port>", "serve MCP over Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio", portNumber)
    .addHelpText(
      "after",
      "\nThe server runs until its client closes stdin (or SIGINT/SIGTERM). Logs and the dashboard URL go to stderr;\n" +
        "stdout carries JSON-RPC only. The project is --project, else $CATDOC_PROJECT_PATH, else the working directory.\n" +
        "With --http and --dashboard the two need different ports: the same --port and --http is bad usage (exit 2),\n" +
        "and a default or configured dashboard port equal to --http moves to a free one. When the MCP server cannot\n" +
        "start (its port is in use), catdoc exits 1 with one line and starts no dashboard.",
    )
    .action(
      action(async (context, options: McpOptions) => {
        if (options.port !== undefined && options.dashboard !== true)
          throw new CliUsageError("--port is the dashboard's port: use it with --dashboard");
        if (options.dashboard === true && options.http !== undefined && options.http !== 0 && options.port === options.http) {
          throw new CliUsageError(`--port and --http are both ${options.http}: the dashboard and the MCP endpoint need a port each`);
        }
        // What catdoc-mcp runs (mcp.ts), on the project of --project; the server loads once it starts.
        const config = { ...context.config, projectPath: context.root };
        await runServerMain({
          app: APP_INFO,
          argv: options.http === undefined ? [] : ["--http", String(options.http)],
          factory: async () => {
            const { createCatDocServer } = await import("../../server.js");
            return () => createCatDocServer(config);
          },
        });
        // runServerMain returns once the server is up, or with the process's exit status set when it cannot start.
        const status = typeof process.exitCode === "number" ? process.exitCode : 0;
        if (status !== 0) return status;
        if (options.dashboard === true) await startBesideMcp(context, options, registry);
        return 0;
      }),
    );
}
