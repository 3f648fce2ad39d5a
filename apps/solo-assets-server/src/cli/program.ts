/**
 * The `solo-assets` command line. `runCli` parses, runs and returns the exit status; it never
 * exits the process (the entry does), so tests can drive it in process.
 */
import { Command, CommanderError } from "commander";
import { isToolError } from "@local-mcp/core";
import { ConfigError } from "@local-mcp/core";
import { APP_SUMMARY } from "../app-info.js";
import type { CliSetup } from "./cli-setup.js";
import { registerDashboardCommand } from "./commands/dashboard-command.js";
import { registerReadCommands } from "./commands/read-commands.js";
import { registerWriteCommands } from "./commands/write-commands.js";

const HELP_AFTER = `
The library is $SOLO_DB_PATH, else $XDG_DATA_HOME/local-mcp/solo-assets.duckdb (~/.local/share/… when unset).
The MCP server is the separate bin solo-assets-mcp (run solo-assets-mcp --help for its variables).
Exit status: 0 done; 1 failed (save: the gate rejected the code); 2 bad usage.`;

export async function runCli(argv: readonly string[], setup: CliSetup): Promise<number> {
  const state = { exitCode: 0 };
  const program = new Command("solo-assets");
  program
    .description(`Solo assets: ${APP_SUMMARY}`)
    .version(setup.version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .configureOutput({
      writeOut: (text) => void setup.io.stdout.write(text),
      writeErr: (text) => void setup.io.stderr.write(text),
    })
    .exitOverride()
    .addHelpText("after", HELP_AFTER);
  registerReadCommands(program, setup);
  registerWriteCommands(program, setup, state);
  registerDashboardCommand(program, setup);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const message = isToolError(error) ? `${error.message} ${error.suggestion}` : error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error);
    setup.io.stderr.write(`solo-assets: ${message}\n`);
    return 1;
  }
}
