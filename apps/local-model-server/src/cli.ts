#!/usr/bin/env node
// The `local-model` CLI: checks the configuration the MCP server (local-model-mcp) would use.
import { ConfigError, createLogger } from "@local-mcp/core";
import { Command } from "commander";
import { checkConfig, formatCheck } from "./cli/config-check.js";
import { formatStats } from "./cli/stats-report.js";
import { formatTemplates } from "./cli/templates-list.js";
import { CONFIG_FILE_NAME, ENV_VARS, loadConfig, type LocalModelConfig } from "./config.js";
import { StatsStore } from "./domain/stats/stats-store.js";
import { TemplateStore } from "./domain/templates/template-store.js";
import { SERVER_VERSION } from "./server.js";

const out = (text: string) => void process.stdout.write(text);
const json = (value: unknown) => out(`${JSON.stringify(value, null, 2)}\n`);

const program = new Command();
program
  .name("local-model")
  .description("Check the configuration of local-model-mcp, the MCP server that takes structured chores off Claude.")
  .version(SERVER_VERSION)
  .option("-c, --config <path>", `config file (default: $LOCAL_MODEL_CONFIG, else ./${CONFIG_FILE_NAME} when present)`)
  .showHelpAfterError()
  .addHelpText("after", `\nEnvironment (each overrides the config file):\n${ENV_VARS.map((v) => `  ${v.name.padEnd(34)}${v.description}`).join("\n")}\n`);

function config(): LocalModelConfig {
  const file = program.opts<{ config?: string }>().config;
  return loadConfig({ env: process.env, cwd: process.cwd(), ...(file ? { configFile: file } : {}) });
}

const configCommand = program.command("config").description("inspect the resolved configuration");
configCommand
  .command("check")
  .description("print the resolved configuration and check it: roots, templates, and the model (loaded, asked for one JSON answer) or the remote endpoint")
  .option("--json", "print the report as JSON")
  .option("--no-load", "do not load the model or contact the remote endpoint")
  .action(async (options: { json?: boolean; load: boolean }) => {
    const resolved = config();
    const report = await checkConfig(resolved, { load: options.load });
    if (options.json) json(report);
    else out(formatCheck(report, resolved));
    process.exitCode = report.ok ? 0 : 1;
  });

program
  .command("templates")
  .description("list the templates local_generate can fill (shipped GSD templates and templates_dir)")
  .option("--json", "print the list as JSON")
  .action(async (options: { json?: boolean }) => {
    const resolved = config();
    const templates = await new TemplateStore(undefined, resolved.templatesDir, resolved.templatesConfinedTo).list();
    if (options.json) json(templates);
    else out(formatTemplates(templates));
  });

program
  .command("stats")
  .description("print the usage statistics the server has recorded (local://stats)")
  .option("--json", "print them as JSON")
  .action(async (options: { json?: boolean }) => {
    const resolved = config();
    const logger = createLogger({ name: "local-model", level: resolved.logLevel });
    const view = await new StatsStore({ stateDir: resolved.stateDir, logger, enabled: resolved.tokenTracking }).view();
    if (options.json) json(view);
    else out(formatStats(view));
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`local-model: ${error.message}\n`);
    process.exitCode = 2;
  } else throw error;
}
