/**
 * What the `local-model` commands do, loaded by cli.ts only when a command runs (so `--help` and
 * usage errors never load the config schemas, the stats store or the model service).
 */
import { createLogger } from "@local-mcp/core";
import { loadLocalModelConfig, type LocalModelConfig } from "../config.js";
import { StatsStore } from "../domain/stats/stats-store.js";
import { TemplateStore } from "../domain/templates/template-store.js";
import { checkConfig, formatCheck } from "./config-check.js";
import { formatStats } from "./stats-report.js";
import { formatTemplates } from "./templates-list.js";

const out = (text: string) => void process.stdout.write(text);
const json = (value: unknown) => out(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The configuration the server would use here; `configFile` is the `--config` option, which names
 * the config file for this run as LOCAL_MODEL_CONFIG would (and wins over it).
 */
function resolveConfig(configFile: string | undefined): LocalModelConfig {
  return loadLocalModelConfig(configFile ? { ...process.env, LOCAL_MODEL_CONFIG: configFile } : process.env, process.cwd());
}

/** `local-model config check`: exit status 1 when what the configuration names does not work. */
export async function runConfigCheck(configFile: string | undefined, options: { json?: boolean; load: boolean }): Promise<void> {
  const resolved = resolveConfig(configFile);
  const report = await checkConfig(resolved, { load: options.load });
  if (options.json) json(report);
  else out(formatCheck(report, resolved));
  process.exitCode = report.ok ? 0 : 1;
}

/** `local-model templates`. */
export async function runTemplates(configFile: string | undefined, options: { json?: boolean }): Promise<void> {
  const resolved = resolveConfig(configFile);
  const templates = await new TemplateStore(undefined, resolved.templatesDir, resolved.templatesConfinedTo).list();
  if (options.json) json(templates);
  else out(formatTemplates(templates));
}

/** `local-model stats`. */
export async function runStats(configFile: string | undefined, options: { json?: boolean }): Promise<void> {
  const resolved = resolveConfig(configFile);
  const logger = createLogger({ name: "local-model", level: resolved.logLevel });
  const view = await new StatsStore({ stateDir: resolved.stateDir, logger, enabled: resolved.tokenTracking }).view();
  if (options.json) json(view);
  else out(formatStats(view));
}
