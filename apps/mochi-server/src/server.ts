import { APP_INFO } from "./app-info.js";
import { createServer, type CreatedServer } from "@local-mcp/core";
import { catalogResources } from "./resources/catalog-resources.js";
import { statsResource } from "./resources/stats-resource.js";
import type { MochiRuntime } from "./runtime.js";
import { mochiTools } from "./tools/index.js";

const INSTRUCTIONS = `Mochi knows this codebase: a catalog of its conventions, patterns and examples (built by \`mochi index\`) and, when configured, a small model fine-tuned on it.
- suggest_pattern: which of the codebase's patterns fits a goal, with an example (works from the catalog alone).
- domain_query: ask the codebase's model a question; the answer is grounded in catalog entries listed in \`sources\`.
- complete_code: complete code at a cursor (prefix/suffix) in the codebase's style.
- Resources: mochi://conventions/{name}, mochi://patterns/{name}, mochi://examples/{id}, mochi://stats.
Mochi complements a code-search server (such as kiri): use that to find files, Mochi to follow the codebase's way of writing them.`;

/** The mochi server over a runtime the process shares between sessions (the runtime outlives each server). */
export function createMochiServer(runtime: MochiRuntime): CreatedServer {
  return createServer({
    name: APP_INFO.name,
    version: APP_INFO.version,
    title: APP_INFO.title,
    instructions: INSTRUCTIONS,
    responseLevel: runtime.config.responseLevel,
    defaultTimeoutMs: runtime.config.deadlineMs,
    logger: runtime.logger,
    tools: mochiTools(runtime),
    resources: [statsResource(runtime)],
    resourceTemplates: catalogResources(runtime),
  });
}
