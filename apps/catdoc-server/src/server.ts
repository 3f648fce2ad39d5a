/**
 * The CatDoc MCP server: its 19 tools (tools/index.ts) and resources (resources/index.ts) over
 * one project, as a core server definition. `createServer(createCatDocServer(config))` gives
 * a running server; mcp-main.ts serves it over stdio or HTTP.
 */
import { createLogger, createServer } from "@local-mcp/core";
import type { Logger, ServerDefinition, ServerFactory } from "@local-mcp/core";
import { APP_INFO } from "./app-info.js";
import { catDocConfigFromProcess } from "./config.js";
import type { CatDocConfig } from "./config.js";
import { ProjectAccess } from "./project-access.js";
import { catdocResources } from "./resources/index.js";
import { catdocTools } from "./tools/index.js";

const INSTRUCTIONS = [
  "CatDoc keeps a project's documents as a category: objects are documents, morphisms are relations between them,",
  "functors map one category of documents into another (requirements → specifications → design), and natural",
  "transformations relate two functors. Start with catdoc_list_categories or catdoc_search; read a document with",
  "catdoc_show_object (response_level full) or the resource catdoc://objects/{id}; follow relations with catdoc_trace;",
  "check the laws with catdoc_validate (isValid false is a result, not an error). catdoc_import_document turns Markdown",
  "into objects and references into morphisms (try dryRun first). Lists are paged: use limit/offset and nextOffset.",
].join(" ");

export interface CatDocServerOptions {
  logger?: Logger;
}

export function createCatDocServer(config: CatDocConfig, options: CatDocServerOptions = {}): ServerDefinition {
  const project = new ProjectAccess(config.projectPath);
  const logger = options.logger ?? createLogger({ name: APP_INFO.name, level: config.logLevel });
  return {
    name: APP_INFO.name,
    version: APP_INFO.version,
    title: APP_INFO.title,
    instructions: INSTRUCTIONS,
    responseLevel: config.responseLevel,
    logger,
    tools: catdocTools(project),
    ...catdocResources(project),
  };
}

/** What runServerMain serves: a CatDoc server per connection, on `config` (default: this process's). */
export function catDocServerFactory(config: CatDocConfig = catDocConfigFromProcess()): ServerFactory {
  return () => createServer(createCatDocServer(config));
}
