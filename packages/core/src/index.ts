// Public surface of @local-mcp/core. Heavy or test-only code lives behind subpaths
// (`@local-mcp/core/testing`), so importing this never loads them.
export { ERROR_CODES, ERROR_STATUS, ToolError, ToolErrorBodySchema, isToolError, toToolError } from "./errors.js";
export type { ErrorCode, ToolErrorBody, ToolErrorOptions } from "./errors.js";
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
export type { LevelChoice, LevelParts, ResponseLevel } from "./response-level.js";
export {
  CHARS_PER_TOKEN,
  DEFAULT_MAX_RESPONSE_TOKENS,
  estimateJsonTokens,
  estimateResponseTokens,
  jsonTokensAtMost,
  preloadResponseTokenizer,
  responseTooLarge,
  tokensAboveBudget,
} from "./response-budget.js";
export { LOG_LEVELS, createLogger, silentLogger } from "./logger.js";
export type { LogFields, LogLevel, Logger, LoggerOptions } from "./logger.js";
export {
  CommonConfigSchema,
  ConfigError,
  HttpConfigSchema,
  envKeyToField,
  fieldToEnvKey,
  parseCommonConfig,
  parseEnvConfig,
  parseHttpConfig,
} from "./config.js";
export type { CommonConfig, Env, HttpConfig } from "./config.js";
export { abortableDelay, withDeadline } from "./guards/deadline.js";
export type { DeadlineOptions } from "./guards/deadline.js";
export { ProgressReporter } from "./guards/progress.js";
export type { ProgressReport, ProgressSender } from "./guards/progress.js";
export { Readiness } from "./guards/readiness.js";
export type { ReadinessState } from "./guards/readiness.js";
export { MemoryGuard, availableMemoryBytes, formatBytes } from "./guards/memory.js";
export type { MemoryGuardOptions } from "./guards/memory.js";
export { defineTool, lazySchema } from "./tool-definition.js";
export { ADDITIVE, DESTRUCTIVE, DESTRUCTIVE_IDEMPOTENT, READ_ONLY, openWorld } from "./tool-definition.js";
export type { AnyToolDefinition, ToolAnnotations, ToolContext, ToolDefinition } from "./tool-definition.js";
export {
  RESOURCE_VERSION_META,
  contentHash,
  defineResource,
  defineResourceTemplate,
  renderResourceBody,
  stableStringify,
} from "./resource-definition.js";
export type {
  ResourceBody,
  ResourceDefinition,
  ResourceListing,
  ResourceOversize,
  ResourceTemplateDefinition,
} from "./resource-definition.js";
export { createServer, errorResult } from "./server/create-server.js";
export type { CreatedServer, InstanceOptions, ServerDefinition, ServerFactory } from "./server/create-server.js";
export { DEFAULT_RESOURCE_POLL_MS, MAX_WATCHED_RESOURCES, ResourceWatch } from "./server/resource-watch.js";
export type { ResourceChange } from "./server/resource-watch.js";
export { RESOURCE_NOT_FOUND } from "./server/resources.js";
export { DEFAULT_PAGE_ITEMS, PAGE_BUDGET_SHARE } from "./server/resource-pages.js";
export type { PageLimits } from "./server/resource-pages.js";
export { PART_BUDGET_SHARE, RESOURCE_PART_META, parsePartUri, partUri } from "./server/resource-reads.js";
export { STDIO_DRAIN_MS, STDIO_READY_TEXT, runStdio } from "./server/run-stdio.js";
export type { RunStdioOptions, StdioHandle } from "./server/run-stdio.js";
// runHttp is not exported here: the barrel is bundled into every app, and with code splitting each
// module it reaches statically is loaded at start; the HTTP stack (the SDK's Streamable HTTP
// transport, Hono, whose globals load Node's fetch) costs ~100 ms a stdio server never needs.
// runServerMain loads it on `--http PORT`; tests import it from dist/server/run-http.js.
export type { HttpHandle, RunHttpOptions } from "./server/run-http.js";
export { LOOPBACK_HOST_NAMES, checkLoopbackRequest } from "./server/http-guards.js";
export { CheckedStdioTransport, MAX_STDIO_LINE_BYTES } from "./server/checked-stdio-transport.js";
export type { CheckedStdioTransportOptions } from "./server/checked-stdio-transport.js";
export { checkJsonRpcMessage } from "./server/json-rpc-checks.js";
export type { CheckedMessage, TransportErrorReply } from "./server/json-rpc-checks.js";
export { listenFailureLine, runServerMain, serverUsage } from "./server/run-main.js";
export type { EnvVarDoc, ServerMainOptions } from "./server/run-main.js";
export { installStdoutGuard, protocolStdout, stdoutGuardInstalled } from "./server/stdout-guard.js";
export { EXIT_NOT_BUILT, runUnbuiltMain } from "./server/run-unbuilt-main.js";
export type { UnbuiltMainOptions } from "./server/run-unbuilt-main.js";
export { atomicWriteTempPath, syncDirectorySync, writeFileAtomic, writeFileAtomicSync } from "./files/atomic-write.js";
export type { WriteFileAtomicOptions } from "./files/atomic-write.js";
export { ConfinementError, isPathInside, openConfined, writeFileConfined } from "./files/confined-open.js";
export type { ConfinedFile, OpenConfinedOptions, WriteFileConfinedOptions } from "./files/confined-open.js";
export { LockTimeoutError, acquireDirectoryLock, withDirectoryLock } from "./files/directory-lock.js";
export type { DirectoryLockOptions, HeldLock, LockHolder } from "./files/directory-lock.js";
export { isProcessAlive } from "./files/process-alive.js";
export { errnoCode, isMissingPathError } from "./files/errno.js";
export { MAX_PATH_BYTES, checkPathShape, confinePath, isInsideAny, pathErrorFrom, pathForbidden, quotePath, realPathOfNearest } from "./files/path-guard.js";
export type { ConfineOptions, PathErrorContext } from "./files/path-guard.js";
export { seedFrom, seededRandom } from "./seeded-random.js";
export { nestingDepth } from "./nesting-depth.js";
export { DASHBOARD_CSP, DASHBOARD_HEADERS, DEFAULT_MAX_BODY_BYTES, HttpError, readJsonObject, sendAsset, sendJson } from "./dashboard/http-responses.js";
export type { ReadJsonOptions, SendOptions } from "./dashboard/http-responses.js";
