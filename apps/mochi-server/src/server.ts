import { APP_INFO } from "./app-info.js";
import { createServer, type CreatedServer } from "@local-mcp/core";
import { catalogResources } from "./resources/catalog-resources.js";
import { statsResource } from "./resources/stats-resource.js";
import type { MochiConfig } from "./config.js";
import { MochiRuntime } from "./runtime.js";
import { mochiTools } from "./tools/index.js";

const INSTRUCTIONS = `Mochi knows this codebase: a catalog of its conventions, patterns and examples (built by \`mochi index\`) and, when configured, a small model fine-tuned on it.
- suggest_pattern: which of the codebase's patterns fits a goal, with an example (works from the catalog alone).
- domain_query: ask the codebase's model a question; the answer is grounded in catalog entries listed in \`sources\`.
- complete_code: complete code at a cursor (prefix/suffix) in the codebase's style.
- Resources: mochi://conventions/{name}, mochi://patterns/{name}, mochi://examples/{id}, mochi://stats.
Mochi complements a code-search server (such as kiri): use that to find files, Mochi to follow the codebase's way of writing them.`;

export interface MochiServerOptions {
  /**
   * The process's runtime, shared by its sessions (HTTP) and outliving each server. When absent the
   * server creates one from the config, starts it and disposes of it when the server closes.
   */
  runtime?: MochiRuntime;
}

/** The mochi server: three tools over the catalog and the model, the mochi:// resources. */
export function createMochiServer(config: MochiConfig, options: MochiServerOptions = {}): CreatedServer {
  const owned = options.runtime === undefined;
  const runtime = options.runtime ?? new MochiRuntime(config);
  if (owned) void runtime.start();
  return createServer({
    name: APP_INFO.name,
    version: APP_INFO.version,
    title: APP_INFO.title,
    instructions: INSTRUCTIONS,
    responseLevel: config.responseLevel,
    defaultTimeoutMs: config.deadlineMs,
    resourcePollMs: config.resourcePollMs,
    logger: runtime.logger,
    tools: mochiTools(runtime),
    resources: [statsResource(runtime)],
    resourceTemplates: catalogResources(runtime),
    ...(owned ? { onClose: () => runtime.dispose() } : {}),
  });
}
