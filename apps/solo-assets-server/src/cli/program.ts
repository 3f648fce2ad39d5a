/**
 * The `solo-assets` command line. `runCli` parses, runs and returns the exit status; it never
 * exits the process (the entry does), so tests can drive it in process. Registering the commands
 * loads only their definitions (commander and small modules): `--help` is fast, and each action
 * imports its implementation when run. Every failure is one line on stderr (cli-errors.ts).
 */
import { Command, CommanderError } from "commander";
import { APP_INFO } from "../app-info.js";
import type { CliSetup } from "./cli-setup.js";
import { registerDashboardCommand } from "./commands/dashboard-command.js";
import { registerReadCommands } from "./commands/read-commands.js";
import { registerWriteCommands } from "./commands/write-commands.js";

const HELP_AFTER = `
The library is $SOLO_DB_PATH, else $XDG_DATA_HOME/local-mcp/solo-assets.duckdb (~/.local/share/… when unset).
The MCP server is the separate bin solo-assets-mcp (run solo-assets-mcp --help for its variables).
Exit status: 0 done; 1 failed (save: the gate rejected the code); 2 bad usage (the command line or a SOLO_* variable).
A failure is one line on stderr: solo-assets: CODE: what happened — what to do.`;

/** commander's message ("error: unknown option '--x'") as one line with the command's help pointer. */
function usageLine(error: CommanderError, argv: readonly string[]): string {
  const message = error.message
    .replace(/^error: /, "")
    .replace(/\s+/g, " ")
    .trim();
  const command = argv.find((arg) => !arg.startsWith("-"));
  const help = command && error.code !== "commander.unknownCommand" ? `solo-assets ${command} --help` : "solo-assets --help";
  return `solo-assets: INVALID_INPUT: ${message} — see \`${help}\``;
}

export async function runCli(argv: readonly string[], setup: CliSetup): Promise<number> {
  const state = { exitCode: 0 };
  const program = new Command("solo-assets");
  program
    .description(APP_INFO.summary)
    .version(setup.version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .configureOutput({
      writeOut: (text) => void setup.io.stdout.write(text),
      writeErr: (text) => void setup.io.stderr.write(text),
      // Errors are printed once, as one coded line, below.
      outputError: () => undefined,
    })
    .exitOverride()
    // Program options only before the command: `get f --version 2` is get's --version.
    .enablePositionalOptions()
    .addHelpText("after", HELP_AFTER);
  registerReadCommands(program, setup);
  registerWriteCommands(program, setup, state);
  registerDashboardCommand(program, setup);
  if (argv.length === 0) {
    setup.io.stderr.write("solo-assets: INVALID_INPUT: no command given — see `solo-assets --help` for the commands\n");
    return 2;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with "errors" of status 0; everything else commander refuses
      // (unknown command or option, missing or invalid argument) is bad usage.
      if (error.exitCode === 0) return 0;
      setup.io.stderr.write(`${usageLine(error, argv)}\n`);
      return 2;
    }
    // Loaded only now: the action that threw has loaded core already.
    const { failureLine } = await import("./cli-errors.js");
    const failure = failureLine(error);
    setup.io.stderr.write(`${failure.line}\n`);
    return failure.exitCode;
  }
}
