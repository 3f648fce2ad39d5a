/**
 * The `catdoc` command line: a commander program with one file per command under commands/.
 * `runCli` parses, runs and returns the exit status; it never exits the process itself (the
 * entry does), so the program can be driven in-process as well as through the bin.
 *
 * Start-up (issue #14): commands are registered from light modules; what a command runs (the
 * domain, the store, the validators, the dashboard, the renderers) is loaded with `import()` in
 * its action, and the configuration is read only when a command runs, so `--help` loads none of
 * it. Bad usage is one coded line on stderr (`catdoc: USAGE: …`) and exit 2.
 */
import { resolve } from "node:path";
import { CommanderError, Command } from "commander";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, CliConfigError, CliUsageError, failureMessage, usageLine } from "./cli-errors.js";
import type { CatDocConfig } from "../config.js";
import type { CliIo } from "./cli-io.js";
import { CommandContext } from "./command-context.js";
import { registerAddCommand } from "./commands/add.js";
import { registerCoverageCommand } from "./commands/coverage.js";
import { registerDashboardCommand } from "./commands/dashboard.js";
import { registerDiffCommand } from "./commands/diff.js";
import { registerExportCommand } from "./commands/export.js";
import { registerGraphCommand } from "./commands/graph.js";
import { registerImportCommand } from "./commands/import.js";
import { registerInitCommand } from "./commands/init.js";
import { registerListCommand } from "./commands/list.js";
import { registerMapCommand } from "./commands/map.js";
import { registerMcpCommand } from "./commands/mcp.js";
import { registerRenameCommand } from "./commands/rename.js";
import { registerReviewCommand } from "./commands/review.js";
import { registerRmCommand } from "./commands/rm.js";
import { registerSearchCommand } from "./commands/search.js";
import { registerShowCommand } from "./commands/show.js";
import { registerTraceCommand } from "./commands/trace.js";
import { registerUpdateCommand } from "./commands/update.js";
import { registerValidateCommand } from "./commands/validate.js";
import { adaptOriginalArguments } from "./original-flags.js";

export interface CliSetup {
  io: CliIo;
  /**
   * Reads the app's configuration from the environment (config.ts) when a command runs — never
   * for --help; its `projectPath` (CATDOC_PROJECT_PATH, else the working directory) is the
   * project root when `--project` is not given. A bad value rejects (one line, exit 1).
   */
  loadConfig: () => Promise<CatDocConfig>;
  /** The working directory: user-given file paths (import) are relative to it. */
  cwd: string;
  version: string;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); only long-running commands call it. */
  waitForStop: () => Promise<string>;
  /** Opens a URL in the user's browser (`catdoc dashboard --open`); absent, --open says to open it by hand. */
  openUrl?: (url: string) => Promise<void>;
}

/** What a command's action returns: its exit status (default 0). */
export type ActionResult = Promise<number | void>;

/**
 * Wraps a command's action: builds its context from the global options and records its exit
 * status. `fn` receives commander's positional arguments followed by the command's options.
 */
export type ActionWrapper = <A extends unknown[]>(
  fn: (context: CommandContext, ...args: A) => ActionResult,
) => (...args: unknown[]) => Promise<void>;

export interface CommandRegistry {
  program: Command;
  action: ActionWrapper;
  setup: CliSetup;
}

const EXIT_STATUS_HELP = `
Exit status: 0 done; 1 the command failed (or validate found the project invalid); 2 bad usage.
The project is --project <path>, else $CATDOC_PROJECT_PATH, else the working directory.
Coming from the original CatDoc: list without a kind lists objects; -d -l -a, init -f -n and
dashboard -p <port> -o work as there; -c <root>/.catdoc/config.yaml is --project <root>; -v and
the flags that mean something else here are refused with what to use (docs/catdoc.md).`;

export function createProgram(setup: CliSetup, state: { exitCode: number }): Command {
  const program = new Command("catdoc");
  program
    .description(
      "CatDoc: documents as a category — objects (documents), morphisms (their relations), functors and natural transformations, kept in .catdoc/category.yaml",
    )
    .version(setup.version, "-V, --version", "print the version")
    .option(
      "-p, --project <path>",
      "project root (default: $CATDOC_PROJECT_PATH or the working directory); after `dashboard`, -p is its --port",
    )
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help for a command")
    .configureOutput({
      writeOut: (text) => void setup.io.stdout.write(text),
      writeErr: (text) => void setup.io.stderr.write(text),
      // commander's refusals (unknown command or option, bad or missing argument) as one coded line.
      outputError: (text, write) => write(`catdoc: ${usageLine(text.replace(/^error: /, ""))}\n`),
    })
    .exitOverride()
    .addHelpText("after", EXIT_STATUS_HELP);

  const action: ActionWrapper =
    <A extends unknown[]>(fn: (context: CommandContext, ...args: A) => ActionResult) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const options = command.optsWithGlobals<{ project?: string }>();
      const config = await setup.loadConfig().catch((error: unknown) => {
        throw new CliConfigError(error instanceof Error ? error.message : String(error));
      });
      const context = new CommandContext(
        options.project === undefined ? config.projectPath : resolve(setup.cwd, options.project),
        setup.io,
        config,
      );
      const status = await fn(context, ...(args.slice(0, -1) as A));
      state.exitCode = status ?? EXIT_OK;
    };

  const registry: CommandRegistry = { program, action, setup };
  registerInitCommand(registry);
  registerImportCommand(registry);
  registerAddCommand(registry);
  registerUpdateCommand(registry);
  registerRmCommand(registry);
  registerRenameCommand(registry);
  registerMapCommand(registry);
  registerValidateCommand(registry);
  registerReviewCommand(registry);
  registerDiffCommand(registry);
  registerListCommand(registry);
  registerShowCommand(registry);
  registerSearchCommand(registry);
  registerTraceCommand(registry);
  registerCoverageCommand(registry);
  registerExportCommand(registry);
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
    const args = adaptOriginalArguments(argv, setup.cwd);
    if (namesNoCommand(args)) throw new CliUsageError(`no command given (${program.commands.map((command) => command.name()).join(", ")})`);
    await program.parseAsync(args, { from: "user" });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with "errors" of status 0; everything else commander
      // refuses (unknown command or option, missing or invalid argument, no command) is usage.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (error instanceof CliUsageError) {
      setup.io.stderr.write(`catdoc: ${usageLine(error.message)}\n`);
      return EXIT_USAGE;
    }
    setup.io.stderr.write(`catdoc: ${failureMessage(error)}\n`);
    return EXIT_FAILURE;
  }
}

/** True when `argv` holds only the global --project option: commander would print its whole help to stderr. */
function namesNoCommand(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? "";
    if (arg === "-p" || arg === "--project") i += 1;
    else if (!arg.startsWith("--project=")) return false;
  }
  return true;
}
