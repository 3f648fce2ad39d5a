#!/usr/bin/env node
// The `local-model` CLI: checks the configuration the MCP server (local-model-mcp) would use.
// Results on stdout, errors as one line on stderr; exit 0 on success, 1 on failure, 2 on bad usage
// (unknown command or option, a bad configuration). Commands load their modules when they run
// (cli/commands.ts): `--help` and usage errors load only commander and this file's data modules.
import { Command, CommanderError } from "commander";
import { APP_INFO, CONFIG_FILE_NAME } from "./app-info.js";

const program = new Command();
program
  .name("local-model")
  .description(`Check the configuration of ${APP_INFO.name}, the MCP server that takes structured chores off Claude.`)
  .version(APP_INFO.version)
  .option("-c, --config <path>", `config file (default: $LOCAL_MODEL_CONFIG, else ./${CONFIG_FILE_NAME} when present)`)
  .exitOverride()
  .showHelpAfterError()
  .addHelpText(
    "after",
    [
      "",
      "Environment (each overrides the config file):",
      ...APP_INFO.env.map((v) => `  ${v.name.padEnd(34)}${v.description}`),
      "",
      "Exit status:",
      "  0  success",
      "  1  failure: `config check` found that the configured model or endpoint does not work, or a command failed",
      "  2  bad usage: an unknown command or option, or a configuration that does not parse (named on stderr)",
      "",
    ].join("\n"),
  );
// Subcommands share the program's exit handling (status 2 for their usage errors too).
program.configureHelp({ showGlobalOptions: true });

const configFile = () => program.opts<{ config?: string }>().config;
const commands = () => import("./cli/commands.js");

const configCommand = program.command("config").description("inspect the resolved configuration");
configCommand
  .command("check")
  .description(
    "print the resolved configuration and check it: roots, templates, and the model (loaded, asked for one JSON answer) or the remote endpoint",
  )
  .option("--json", "print the report as JSON")
  .option("--no-load", "do not load the model or contact the remote endpoint")
  .action(async (options: { json?: boolean; load: boolean }) => (await commands()).runConfigCheck(configFile(), options));

program
  .command("templates")
  .description("list the templates local_generate can fill (shipped GSD templates and templates_dir)")
  .option("--json", "print the list as JSON")
  .action(async (options: { json?: boolean }) => (await commands()).runTemplates(configFile(), options));

program
  .command("stats")
  .description("print the usage statistics the server has recorded (local://stats)")
  .option("--json", "print them as JSON")
  .action(async (options: { json?: boolean }) => (await commands()).runStats(configFile(), options));

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // commander printed the message and the help; --help and --version end here with 0.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof Error && error.name === "ConfigError") {
    // core is not loaded just to check the class.
    process.stderr.write(`local-model: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    const code = error instanceof Error && error.name === "ToolError" && "code" in error ? `${String(error.code)}: ` : "";
    process.stderr.write(`local-model: ${code}${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
