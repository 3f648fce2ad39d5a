/**
 * What the tools share for the life of a server process: the path guard, the regex worker, the
 * model (lazy), the templates and the stats store. Built once from the config; `dispose`
 * releases the model and the worker and writes pending stats.
 */
import type { Logger } from "@local-mcp/core";
import { join } from "node:path";
import { CONFIG_FILE_NAME } from "./app-info.js";
import type { LocalModelConfig } from "./config.js";
import { ModelService } from "./domain/model/model-service.js";
import { ParserPool } from "./domain/parsing/parser-pool.js";
import { PathGuard } from "./domain/paths/path-guard.js";
import { RegexRunner } from "./domain/regex/bounded-regex.js";
import { StatsStore } from "./domain/stats/stats-store.js";
import { TemplateStore } from "./domain/templates/template-store.js";

export interface LocalModelRuntime {
  config: LocalModelConfig;
  logger: Logger;
  guard: PathGuard;
  regex: RegexRunner;
  /** Worker threads that parse frontmatter and Markdown outlines, bounded in memory and time. */
  parsers: ParserPool;
  model: ModelService;
  templates: TemplateStore;
  stats: StatsStore;
  dispose(): Promise<void>;
}

export function createRuntime(config: LocalModelConfig, logger: Logger): LocalModelRuntime {
  const model = new ModelService(config.model, {
    logger,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    confidencePolicy: config.confidencePolicy,
  });
  const regex = new RegexRunner(config.regexTimeoutMs);
  // Its first thread starts when a client has initialized (createLocalModelServer), not here.
  const parsers = new ParserPool();
  const stats = new StatsStore({ stateDir: config.stateDir, logger, enabled: config.tokenTracking });
  let disposed: Promise<void> | undefined;
  return {
    config,
    logger,
    guard: new PathGuard(config.roots, config.maxFileBytes, {
      // The config that was read and the one the next start would read; the state (stats.json).
      files: [config.configFile, join(config.cwd, CONFIG_FILE_NAME)].filter((f): f is string => f !== undefined),
      dirs: [config.stateDir],
      names: [CONFIG_FILE_NAME],
    }),
    regex,
    parsers,
    model,
    templates: new TemplateStore(undefined, config.templatesDir, config.templatesConfinedTo),
    stats,
    dispose: () =>
      (disposed ??= (async () => {
        await Promise.allSettled([stats.flush(), regex.dispose(), parsers.dispose(), model.dispose()]);
      })()),
  };
}
