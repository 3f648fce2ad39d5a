/**
 * The `catdoc` command line: a commander program with one file per command under commands/.
 * `runCli` parses, runs and returns the exit status; it never exits the process itself (the
 * entry does), so the program can be driven in-process as well as through the bin.
 */
import { resolve } from "node:path";
import { CommanderError, Command } from "commander";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, CliUsageError, failureMessage } from "./cli-errors.js";
import type { CatDocConfig } from "../config.js";
import type { CliIo } from "./cli-io.js";
import { CommandContext } from "./command-context.js";
import { registerDashboardCommand } from "./commands/dashboard.js";
import { registerGraphCommand } from "./commands/graph.js";
import { registerImportCommand } from "./commands/import.js";
import { registerInitCommand } from "./commands/init.js";
import { registerListCommand } from "./commands/list.js";
import { registerMcpCommand } from "./commands/mcp.js";
import { registerSearchCommand } from "./commands/search.js";
import { registerShowCommand } from "./commands/show.js";
import { registerTraceCommand } from "./commands/trace.js";
import { registerValidateCommand } from "./commands/validate.js";

export interface CliSetup {
  io: CliIo;
  /**
   * The app's configuration, read by the entry from the environment (config.ts); its
   * `projectPath` (CATDOC_PROJECT_PATH, else the working directory) is the project root when
   * `--project` is not given.
   */
  config: CatDocConfig;
  /** The working directory: user-given file paths (import) are relative to it. */
  cwd: string;
  version: string;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); only long-running commands call it. */
  waitForStop: () => Promise<string>;
}

/** What a command's action returns: its exit status (default 0). */
export type ActionResult = Promise<number | void>;

/**
 * Wraps a command's action: builds its context from the global options and records its exit
 * status. `fn` receives commander's positional arguments followed by the command's options.
 */
export type ActionWrapper = <A extends unknown[]>(fn: (context: CommandContext, ...args: A) => ActionResult) => (...args: unknown[]) => Promise<void>;

export interface CommandRegistry {
  program: Command;
  action: ActionWrapper;
  setup: CliSetup;
}

const EXIT_STATUS_HELP = `
Exit status: 0 done; 1 the command failed (or validate found the project invalid); 2 bad usage.
The project is --project <path>, else $CATDOC_PROJECT_PATH, else the working directory.`;

export function createProgram(setup: CliSetup, state: { exitCode: number }): Command {
  const program = new Command("catdoc");
  program
    .description("CatDoc: documents as a category — objects (documents), morphisms (their relations), functors and natural transformations, kept in .catdoc/category.yaml")
    .version(setup.version, "-V, --version", "print the version")
    .option("-p, --project <path>", "project root (default: $CATDOC_PROJECT_PATH or the working directory)")
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help for a command")
    .configureOutput({
      writeOut: (text) => void setup.io.stdout.write(text),
      writeErr: (text) => void setup.io.stderr.write(text),
      outputError: (text, write) => write(text.startsWith("error:") ? `catdoc: ${text.slice("error: ".length)}` : text),
    })
    .showHelpAfterError("(run `catdoc --help` or `catdoc <command> --help` for usage)")
    .exitOverride()
    .addHelpText("after", EXIT_STATUS_HELP);

  const action: ActionWrapper =
    <A extends unknown[]>(fn: (context: CommandContext, ...args: A) => ActionResult) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const options = command.optsWithGlobals<{ project?: string }>();
      const context = new CommandContext(options.project === undefined ? setup.config.projectPath : resolve(setup.cwd, options.project), setup.io);
      const status = await fn(context, ...(args.slice(0, -1) as A));
      state.exitCode = status ?? EXIT_OK;
    };

  const registry: CommandRegistry = { program, action, setup };
  registerInitCommand(registry);
  registerImportCommand(registry);
  registerValidateCommand(registry);
  registerListCommand(registry);
  registerShowCommand(registry);
  registerSearchCommand(registry);
  registerTraceCommand(registry);
  registerGraphCommand(registry);
  registerDashboardCommand(registry);
  registerMcpCommand(registry);
  return program;
}

/** Parses `argv` (user arguments, without node and the script) and runs the command. */
export async function runCli(argv: readonly string[], setup: CliSetup): Promise<number> {
  const state = { exitCode: EXIT_OK };
  const program = createProgram(setup, state);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with "errors" of status 0; everything else commander
      // refuses (unknown command or option, missing or invalid argument, no command) is usage.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (error instanceof CliUsageError) {
      setup.io.stderr.write(`catdoc: ${error.message}\n(run \`catdoc --help\` or \`catdoc <command> --help\` for usage)\n`);
      return EXIT_USAGE;
    }
    setup.io.stderr.write(`catdoc: ${failureMessage(error)}\n`);
    return EXIT_FAILURE;
  }
}
