/** What `solo-assets dashboard` does (dashboard-command.ts defines it). */
import { openSoloContext } from "../../context.js";
import { startDashboard } from "../../dashboard/dashboard-server.js";
import { openSoloServices } from "../../services.js";
import type { CliSetup } from "../cli-setup.js";

export async function serveDashboard(setup: CliSetup, port: number): Promise<void> {
  const config = await setup.config();
  const { logger } = openSoloContext(config);
  const dashboard = await startDashboard({
    openServices: () => openSoloServices(config, { logger }),
    port,
    version: setup.version,
    logger,
  });
  setup.io.stdout.write(`Solo assets dashboard: ${dashboard.urlWithToken}\n(the token in the link allows changes; press Ctrl+C to stop)\n`);
  const reason = await setup.waitForStop();
  logger.info(`stopping the dashboard (${reason})`);
  await dashboard.close();
}
