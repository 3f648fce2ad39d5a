/**
 * Services for one CLI command, disposed afterwards. Loaded by the commands' actions only (never
 * by `--help`). A command shows its own progress, so the CLI logs warnings and errors only
 * unless LOCAL_MCP_LOG_LEVEL asks for debug (or less).
 */
import { createLogger } from "@local-mcp/core";
import type { LogLevel } from "@local-mcp/core";
import { openSoloServices } from "../services.js";
import type { SoloServices } from "../services.js";
import type { CliSetup } from "./cli-setup.js";

function cliLogLevel(configured: LogLevel): LogLevel {
  return configured === "info" ? "warn" : configured;
}

export async function withServices<T>(setup: CliSetup, work: (services: SoloServices) => Promise<T>): Promise<T> {
  const config = await setup.config();
  const services = openSoloServices(config, { logger: createLogger({ name: "solo-assets", level: cliLogLevel(config.logLevel) }) });
  try {
    return await work(services);
  } finally {
    await services.dispose();
  }
}
