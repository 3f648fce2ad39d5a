/** `solo-assets dashboard`: serves the dashboard on 127.0.0.1 until SIGINT/SIGTERM. */
import type { Command } from "commander";
import { DEFAULT_DASHBOARD_PORT, startDashboard } from "../../dashboard/dashboard-server.js";
import { openSoloServices } from "../../services.js";
import { positiveInt } from "../cli-setup.js";
import type { CliSetup } from "../cli-setup.js";

export function registerDashboardCommand(program: Command, setup: CliSetup): void {
  program
    .command("dashboard")
    .description("open the dashboard: status, function explorer, settings (127.0.0.1 only)")
    .option("--port <n>", `port on 127.0.0.1 (default ${DEFAULT_DASHBOARD_PORT}; 0 picks a free one)`, positiveInt("--port"), DEFAULT_DASHBOARD_PORT)
    .action(async (options: { port: number }) => {
      const config = setup.config();
      const probe = openSoloServices(config);
      const logger = probe.logger;
      await probe.dispose();
      const dashboard = await startDashboard({
        openServices: () => openSoloServices(setup.config(), { logger }),
        port: options.port,
        version: setup.version,
        logger,
      });
      setup.io.stdout.write(`Solo assets dashboard: ${dashboard.urlWithToken}\n(the token in the link allows changes; press Ctrl+C to stop)\n`);
      const reason = await setup.waitForStop();
      logger.info(`stopping the dashboard (${reason})`);
      await dashboard.close();
    });
}
