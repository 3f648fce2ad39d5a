// Public surface of @local-mcp/core. Heavy or test-only code lives behind subpaths
// (`@local-mcp/core/testing`), so importing this never loads them.
export { ERROR_STATUS, ToolError, ToolErrorBodySchema, isToolError, toToolError } from "./errors.js";
export type { ErrorCode, ToolErrorBody } from "./errors.js";
export {
  LeveledResponse,
  RESPONSE_LEVELS,
  ResponseLevelSchema,
  ToolResponse,
  atLevel,
  eachAtLevel,
  isNestedSubset,
  levelIncludes,
  resolveResponseLevel,
} from "./response-level.js";
export type { LevelParts, ResponseLevel } from "./response-level.js";
export {
  DEFAULT_MAX_RESPONSE_TOKENS,
  estimateJsonTokens,
  jsonTokensAtMost,
  preloadResponseTokenizer,
  responseTooLarge,
  tokensAboveBudget,
} from "./response-budget.js";
export { LOG_LEVELS, createLogger, silentLogger } from "./logger.js";
export type { LogLevel, Logger } from "./logger.js";
export { ConfigError, parseCommonConfig, parseEnvConfig, parseHttpConfig } from "./config.js";
export type { CommonConfig, Env } from "./config.js";
export { abortableDelay, withDeadline } from "./guards/deadline.js";
export { Readiness } from "./guards/readiness.js";
export { MemoryGuard } from "./guards/memory.js";
export { defineTool, lazySchema } from "./tool-definition.js";
export { boundedArray, boundedInt, boundedString } from "./unlisted-bounds.js";
export { ADDITIVE, DESTRUCTIVE, DESTRUCTIVE_IDEMPOTENT, READ_ONLY, openWorld } from "./tool-definition.js";
export type { AnyToolDefinition, ToolAnnotations, ToolContext, ToolDefinition } from "./tool-definition.js";
export { RESOURCE_VERSION_META, contentHash, defineResource, defineResourceTemplate, stableStringify } from "./resource-definition.js";
export type {
  ResourceBody,
  ResourceDefinition,
  ResourceListing,
  ResourceOversize,
  ResourceTemplateDefinition,
} from "./resource-definition.js";
export { createServer } from "./server/create-server.js";
export type { CreatedServer, ServerDefinition, ServerFactory } from "./server/create-server.js";
export { MAX_WATCHED_RESOURCES, ResourceWatch } from "./server/resource-watch.js";
export { RESOURCE_NOT_FOUND } from "./server/resources.js";
export { DEFAULT_PAGE_ITEMS } from "./server/resource-pages.js";
export { RESOURCE_PART_META, parsePartUri, partUri } from "./server/resource-reads.js";
export { runStdio } from "./server/run-stdio.js";
// runHttp is not exported here: the barrel is bundled into every app, and with code splitting each
// module it reaches statically is loaded at start; the HTTP stack (the SDK's Streamable HTTP
// transport, Hono, whose globals load Node's fetch) costs ~100 ms a stdio server never needs.
// runServerMain loads it on `--http PORT`; tests import it from dist/server/run-http.js.
export type { HttpHandle } from "./server/run-http.js";
export { checkLoopbackRequest } from "./server/http-guards.js";
export { CheckedStdioTransport } from "./server/checked-stdio-transport.js";
export { checkJsonRpcMessage } from "./server/json-rpc-checks.js";
export { runServerMain } from "./server/run-main.js";
export type { EnvVarDoc } from "./server/run-main.js";
export { atomicWriteTempPath, syncDirectorySync, writeFileAtomic, writeFileAtomicSync } from "./files/atomic-write.js";
export { ConfinementError, isPathInside, openConfined, writeFileConfined } from "./files/confined-open.js";
export type { ConfinedFile } from "./files/confined-open.js";
export { LockTimeoutError, acquireDirectoryLock, withDirectoryLock } from "./files/directory-lock.js";
export type { LockHolder } from "./files/directory-lock.js";
export { isProcessAlive } from "./files/process-alive.js";
export { errnoCode, isMissingPathError } from "./files/errno.js";
export {
  MAX_PATH_BYTES,
  checkPathShape,
  confinePath,
  isInsideAny,
  pathErrorFrom,
  pathForbidden,
  quotePath,
  realPathOfNearest,
} from "./files/path-guard.js";
export type { PathErrorContext } from "./files/path-guard.js";
export { seedFrom, seededRandom } from "./seeded-random.js";
export { nestingDepth } from "./nesting-depth.js";
export { DASHBOARD_CSP, HttpError, readJsonObject, sendAsset, sendJson } from "./dashboard/http-responses.js";
export type { ReadJsonOptions } from "./dashboard/http-responses.js";
