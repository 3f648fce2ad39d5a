/**
 * `catdoc mcp`: the CatDoc MCP server over stdio (what `catdoc-mcp` runs), on the project of
 * `--project`; with `--dashboard`, the dashboard too, its URL on stderr. stdout carries
 * JSON-RPC only from here on.
 */
import { createLogger } from "@local-mcp/core";
import { DEFAULT_DASHBOARD_PORT, startDashboard } from "../../dashboard/index.js";
import type { DashboardHandle } from "../../dashboard/index.js";
import { runCatDocMcp } from "../../mcp-main.js";
import { CliUsageError, failureMessage } from "../cli-errors.js";
import type { CommandContext } from "../command-context.js";
import { portNumber } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface McpOptions {
  dashboard?: boolean;
  port?: number;
  http?: number;
}

/** The dashboard beside the MCP server. Failing to start it is reported, not fatal: the MCP server still runs. */
async function startBesideMcp(context: CommandContext, options: McpOptions, registry: CommandRegistry): Promise<DashboardHandle | undefined> {
  let port = options.port;
  if (port === undefined) {
    // An uninitialized project (catdoc_init may create it later) still gets a dashboard.
    const configured = await context.store.load().then(
      (project) => project.config.dashboard?.port,
      () => undefined,
    );
    port = configured ?? DEFAULT_DASHBOARD_PORT;
  }
  const logger = createLogger({ name: "catdoc-dashboard", level: "warn", write: (line) => void registry.setup.io.stderr.write(line) });
  try {
    const dashboard = await startDashboard({ store: context.store, port, logger });
    context.note(`CatDoc dashboard: ${dashboard.url}`);
    return dashboard;
  } catch (error) {
    context.note(`catdoc: dashboard not started: ${failureMessage(error)}`);
    return undefined;
  }
}

export function registerMcpCommand(registry: CommandRegistry): void {
  const { program, action, setup } = registry;
  program
    .command("mcp")
    .description("run the CatDoc MCP server over stdio (as catdoc-mcp does), optionally with the dashboard")
    .option("--dashboard", "also serve the dashboard on 127.0.0.1 and print its URL on stderr")
    .option("--port <port>", `dashboard port (default: dashboard.port of config.yaml, else ${DEFAULT_DASHBOARD_PORT})`, portNumber)
    .option("--http <port>", "serve MCP over Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio", portNumber)
    .addHelpText(
      "after",
      "\nThe server runs until its client closes stdin (or SIGINT/SIGTERM). Logs and the dashboard URL go to stderr;\n" +
        "stdout carries JSON-RPC only. The project is --project, else $CATDOC_PROJECT_PATH, else the working directory.",
    )
    .action(
      action(async (context, options: McpOptions) => {
        if (options.port !== undefined && options.dashboard !== true) throw new CliUsageError("--port is the dashboard's port: use it with --dashboard");
        if (options.dashboard === true) await startBesideMcp(context, options, registry);
        await runCatDocMcp({
          argv: options.http === undefined ? [] : ["--http", String(options.http)],
          config: { ...setup.config, projectPath: context.root },
        });
        // runCatDocMcp returns once the server is up (or sets the process's exit status when it cannot start).
        const status = process.exitCode;
        return typeof status === "number" ? status : 0;
      }),
    );
}
