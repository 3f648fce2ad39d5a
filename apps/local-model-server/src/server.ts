/**
 * createLocalModelServer(config): the server definition — six tools that take structured chores
 * off Claude (exact engines where a parser suffices, the local model where judgment is needed)
 * and the `local://stats` resource.
 */
import { createLogger, createServer, type CreatedServer, type Logger } from "@local-mcp/core";
import { APP_INFO } from "./app-info.js";
import type { LocalModelConfig } from "./config.js";
import { createRuntime, type LocalModelRuntime } from "./runtime.js";
import { statsResource } from "./resources/stats-resource.js";
import { localModelTools } from "./tools/index.js";

const INSTRUCTIONS = [
  "Use these tools instead of reading files or raw command output yourself when you only need structured facts:",
  "local_extract (frontmatter fields of GSD PLAN/SUMMARY files, regex matches, exports/imports, outlines;",
  "extract.patterns: regexes matched per line, extract.fields: dotted paths, default all, extract.summarize: a model summary of each outline),",
  "local_verify (a checklist such as must_haves against code, with line evidence; a condition is checked exactly, pattern as a regex,",
  "and task_type only sets the type of conditions that name none),",
  "local_generate (GSD PLAN/SUMMARY/STATE/VERIFICATION files from templates, or inline Handlebars; output_path writes the file),",
  "local_git (status/diff/log as exact lists; ref: the revision compared with, or where the log starts;",
  "commit_message and review: the model words a commit message for the staged diff, or reviews it or options.ref with notes on its lines),",
  "local_analyze (exports, functions, types, dependencies of TS/JS, Python, Go, Rust, Java, C#; depth: levels of TS/JS imports followed),",
  "local_ask (a bounded question to the local model about files or text, answered as JSON matching your schema).",
  "Paths are relative to the first root (repo defaults to it).",
  "Parsers do the work by default (confidence 1); a local model handles natural-language checks and summaries.",
  "Every tool takes engine: auto (default: exact parsers where they suffice, the model where judgment is needed), deterministic (parsers only) or model (the local model for everything).",
  "When a result has success=false or the error suggests it, handle the task directly.",
].join(" ");

export interface LocalModelServerOptions {
  logger?: Logger;
  /** Shared by the sessions of one process (HTTP); created and owned by this server when absent. */
  runtime?: LocalModelRuntime;
}

export function createLocalModelServer(config: LocalModelConfig, options: LocalModelServerOptions = {}): CreatedServer {
  const logger = options.logger ?? createLogger({ name: APP_INFO.name, level: config.logLevel });
  const owned = options.runtime === undefined;
  const runtime = options.runtime ?? createRuntime(config, logger);
  if (owned && config.model.kind !== "none" && config.model.preload) runtime.model.preload();
  const created = createServer({
    name: APP_INFO.name,
    version: APP_INFO.version,
    title: APP_INFO.title,
    instructions: INSTRUCTIONS,
    tools: localModelTools(runtime),
    resources: [statsResource(runtime)],
    responseLevel: config.responseLevel,
    defaultTimeoutMs: config.timeoutMs,
    resourcePollMs: config.resourcePollMs,
    logger,
    onClose: () => (owned ? runtime.dispose() : runtime.stats.flush()),
  });
  // The first parser thread starts once the client has initialized: a thread loading the YAML and
  // Markdown parsers would compete with the initialize answer for the CPU; this way it is ready by
  // the first call.
  const initialized = created.server.oninitialized;
  created.server.oninitialized = () => {
    initialized?.();
    runtime.parsers.warm();
  };
  return created;
}
