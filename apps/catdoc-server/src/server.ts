/**
 * The CatDoc MCP server: its 20 tools (tools/index.ts) and resources (resources/index.ts) over
 * one project, built by core's createServer. server-main.ts makes one per session; mcp.ts and
 * the CLI's `catdoc mcp` serve them over stdio or HTTP.
 */
import { createLogger, createServer } from "@local-mcp/core";
import type { CreatedServer, Logger } from "@local-mcp/core";
import { APP_INFO } from "./app-info.js";
import type { CatDocConfig } from "./config.js";
import { ProjectAccess } from "./project-access.js";
import { catdocResources } from "./resources/index.js";
import { catDocTools } from "./tools/index.js";

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

/** A server on the project of `config`, with its own access to the project (one store). */
export function createCatDocServer(config: CatDocConfig, options: CatDocServerOptions = {}): CreatedServer {
  const project = new ProjectAccess(config.projectPath);
  const logger = options.logger ?? createLogger({ name: APP_INFO.name, level: config.logLevel });
  return createServer({
    name: APP_INFO.name,
    version: APP_INFO.version,
    title: APP_INFO.title,
    instructions: INSTRUCTIONS,
    responseLevel: config.responseLevel,
    resourcePollMs: config.resourcePollMs,
    logger,
    tools: catDocTools(project),
    ...catdocResources(project),
  });
}
