/** `solo-assets dashboard`: serves the dashboard on 127.0.0.1 until SIGINT/SIGTERM. */
import type { Command } from "commander";
import { DEFAULT_DASHBOARD_PORT } from "../../dashboard/dashboard-port.js";
import { positiveInt } from "../cli-setup.js";
import type { CliSetup } from "../cli-setup.js";

export function registerDashboardCommand(program: Command, setup: CliSetup): void {
  program
    .command("dashboard")
    .description("open the dashboard: status, function explorer, settings (127.0.0.1 only)")
    .option(
      "--port <n>",
      `port on 127.0.0.1 (default ${DEFAULT_DASHBOARD_PORT}; 0 picks a free one)`,
      positiveInt("--port"),
      DEFAULT_DASHBOARD_PORT,
    )
    .action(async (options: { port: number }) => (await import("./dashboard-action.js")).serveDashboard(setup, options.port));
}
