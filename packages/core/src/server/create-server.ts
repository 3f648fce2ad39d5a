import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type LoggingLevel,
  type ServerCapabilities,
  type ServerContext,
  type ServerOptions,
  type Tool,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { ToolError, toToolError } from "../errors.js";
import { withDeadline } from "../guards/deadline.js";
import { ProgressReporter } from "../guards/progress.js";
import { createLogger, type LogFields, type Logger } from "../logger.js";
import { DEFAULT_MAX_RESPONSE_TOKENS, responseTooLarge, tokensAboveBudget } from "../response-budget.js";
import { resolveResponseLevel, ResponseLevelSchema, type ResponseLevel } from "../response-level.js";
import type { AnyToolDefinition } from "../tool-definition.js";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../resource-definition.js";
import { boundedErrorBody } from "./bounded-error-body.js";
import { DEFAULT_PAGE_ITEMS, PAGE_BUDGET_SHARE } from "./resource-pages.js";
import { PART_BUDGET_SHARE } from "./resource-reads.js";
import { zodJsonSchemaValidator } from "./json-schema-validator.js";
import { ResourceWatch, type ResourceChange } from "./resource-watch.js";
import { createResourceHandlers } from "./resources.js";

export interface ServerDefinition {
  name: string;
  version: string;
  title?: string;
  /** Sent to clients at initialize: how to use this server well. */
  instructions?: string;
  tools: readonly AnyToolDefinition[];
  resources?: readonly ResourceDefinition[];
  resourceTemplates?: readonly ResourceTemplateDefinition[];
  /** Server default response level (`LOCAL_MCP_RESPONSE_LEVEL`). */
  responseLevel?: ResponseLevel;
  /** Deadline for tools that set none; 30 s if unset. */
  defaultTimeoutMs?: number;
  /**
   * Most tokens (chars/4 of the JSON) one response may have. A bigger tool result is replaced by a
   * RESOURCE_EXHAUSTED error saying what would fit; a bigger resource read is split into parts
   * (text) or refused (JSON, binary); a resources/list page takes at most 40% of it. Default
   * 25,000: Claude Code's limit.
   */
  maxResponseTokens?: number;
  /** Most entries on one page of resources/list and resources/templates/list; 200 if unset. */
  resourcePageSize?: number;
  /**
   * How often watched resources are compared for change notifications: each app passes its parsed
   * `LOCAL_MCP_RESOURCE_POLL_MS` (config.ts); 2 s if unset (resource-watch.ts).
   */
  resourcePollMs?: number;
  /** Heartbeat period for progress notifications; 1 s if unset. */
  heartbeatMs?: number;
  logger?: Logger;
  /** Releases what the server holds (engines, databases); runs once on cleanup. */
  onClose?: () => Promise<void> | void;
}

export interface CreatedServer {
  /**
   * An SDK server on this definition, made on first use: what an in-process test connects to
   * (through an InMemoryTransport, a 2025-era connection).
   */
  readonly server: Server;
  /**
   * A new SDK server on the same prepared definition (tools, schemas, resource handlers built
   * once): the runners make one per stdio connection and one per 2026-07-28 HTTP request.
   */
  instance: (options?: InstanceOptions) => Server;
  definition: ServerDefinition;
  /** Change notifications of the resources. */
  resourceWatch: ResourceWatch;
  /** Closes every instance still open, then runs the definition's `onClose` (once). */
  cleanup: () => Promise<void>;
}

export interface InstanceOptions {
  /**
   * The era the instance serves (the SDK's entries say): 2025-era instances tell their client of
   * changes to the resources it subscribed (`resources/subscribe`), 2026-07-28 instances pass
   * every change to the SDK's `subscriptions/listen` routing. Default `legacy`.
   */
  era?: "legacy" | "modern";
  /** One 2026-07-28 HTTP request: its runner publishes changes itself; the instance sends none. */
  perRequest?: boolean;
}

/**
 * A factory the runners call: once for stdio, once per 2025-era HTTP session, and once per
 * process for 2026-07-28 HTTP requests (each request then gets its own `instance()`).
 */
export type ServerFactory = () => CreatedServer | Promise<CreatedServer>;

const RESPONSE_LEVEL_ARG = "response_level";

const DEFAULT_TIMEOUT_MS = 30_000;
/** Time kept back from a call's deadline when it waits for a loading model (see below). */
const READINESS_MARGIN_MS = 50;

interface PreparedTool {
  definition: AnyToolDefinition;
  /** The input schema with `response_level`, built on first call or listing (zod's extend costs start-up time). */
  input: () => z.ZodObject;
  /** The tools/list entry, built on first listing (JSON Schema conversion costs start-up time). */
  listing: () => Tool;
}

/** zod's JSON Schema bounds of every `z.number().int()`, which say nothing a client needs (Number.MAX_SAFE_INTEGER). */
const SAFE_INTEGER_BOUND = 9_007_199_254_740_991;

const isEmptyObject = (value: unknown) =>
  value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * Drops what zod writes that constrains nothing yet costs tokens in every listing, wherever it is:
 * `minimum: -2^53+1` and `maximum: 2^53-1` (its bounds of `.int()`), and a record's
 * `propertyNames: { type: "string" }` and `additionalProperties: {}` (every JSON key is a string;
 * `{}` admits any value).
 */
function withoutNoOpConstraints(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) withoutNoOpConstraints(item);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  // A `properties` map is keyed by parameter names, not keywords: only its schemas are walked.
  for (const map of [record.properties, record.$defs, record.definitions]) {
    if (map !== null && typeof map === "object") for (const schema of Object.values(map)) withoutNoOpConstraints(schema);
  }
  if (record.minimum === -SAFE_INTEGER_BOUND) delete record.minimum;
  if (record.maximum === SAFE_INTEGER_BOUND) delete record.maximum;
  const names = record.propertyNames as Record<string, unknown> | undefined;
  if (names !== undefined && Object.keys(names).length === 1 && names.type === "string") delete record.propertyNames;
  if (isEmptyObject(record.additionalProperties)) delete record.additionalProperties;
  for (const [key, value] of Object.entries(record)) {
    if (key !== "properties" && key !== "$defs" && key !== "definitions") withoutNoOpConstraints(value);
  }
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  withoutNoOpConstraints(json);
  return json;
}

/**
 * What an error's structuredContent needs to pass a tool's output schema: SDK 1.x clients validate
 * it even when `isError` (the v2 client skips errors), so the schema admits any object with an
 * `error` — the error body itself (errors.ts) is not repeated in every tool's schema.
 */
const ERROR_BRANCH = { type: "object", required: ["error"] } as const;

/**
 * The levels, explained once for every server (appended to its instructions); each tool's
 * `response_level` says only its default.
 */
export const RESPONSE_LEVELS_NOTE =
  "Every tool takes response_level: minimal (ids and counts), standard (adds names, titles, summaries) or full (everything); each tool's schema names its default. Ask for more only when you need it. An answer above 25,000 tokens is refused with RESOURCE_EXHAUSTED saying what fits.";

function prepareTool(tool: AnyToolDefinition, serverDefault: ResponseLevel | undefined): PreparedTool {
  let input: z.ZodObject | undefined;
  // tool.input is read only here, on first listing or call: a tool may build its schema lazily (lazySchema).
  const withLevel = (): z.ZodObject => {
    if (input === undefined && RESPONSE_LEVEL_ARG in tool.input.shape) {
      throw new Error(`Tool ${tool.name} must not declare ${RESPONSE_LEVEL_ARG}; core adds it.`);
    }
    return (input ??= tool.input
      .extend({
        [RESPONSE_LEVEL_ARG]: ResponseLevelSchema.optional().describe(`default: ${tool.responseLevel ?? serverDefault ?? "minimal"}`),
      })
      .strict());
  };
  let listing: Tool | undefined;
  const list = (): Tool =>
    (listing ??= {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchemaOf(withLevel(), "input") as Tool["inputSchema"],
      outputSchema: { type: "object" as const, anyOf: [jsonSchemaOf(tool.output, "output"), ERROR_BRANCH] },
      annotations: { title: tool.title, ...tool.annotations },
    });
  return { definition: tool, input: withLevel, listing: list };
}

/** Renders a failure as a tool result the model can act on (never a stack trace, never oversized). */
export function errorResult(error: ToolError): CallToolResult {
  const body = boundedErrorBody(error.toBody());
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

function invalidInput(error: z.ZodError): ToolError {
  const fields = error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const keys = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : "";
    return { field: path || keys || "(arguments)", message: issue.message };
  });
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join("; ");
  return new ToolError("INVALID_INPUT", `Invalid arguments — ${summary}`, {
    suggestion: `Fix ${fields.map((f) => `'${f.field}'`).join(", ")} to match the tool's input schema and call again.`,
    details: { fields },
  });
}

/**
 * Cache hints of 2026-07-28 results (`ttlMs`, `cacheScope`), true to what can change:
 * - tools/list, prompts/list, resources/templates/list and server/discover are fixed for the life of the
 *   process (a new server version is another cache partition): an hour;
 * - resources/list and resources/read follow the project's files, which change under the client
 *   at any time (an editor, git, another server): not cacheable (ttlMs 0), so a changed document
 *   or catalog is never answered from a client's cache.
 * Always `private`: the data is the user's own.
 */
export const CACHE_HINTS = {
  "tools/list": { ttlMs: 3_600_000, cacheScope: "private" },
  "resources/templates/list": { ttlMs: 3_600_000, cacheScope: "private" },
  "server/discover": { ttlMs: 3_600_000, cacheScope: "private" },
  "resources/list": { ttlMs: 0, cacheScope: "private" },
  "resources/read": { ttlMs: 0, cacheScope: "private" },
  "prompts/list": { ttlMs: 3_600_000, cacheScope: "private" },
} as const satisfies ServerOptions["cacheHints"];

/** Our log levels as the MCP logging levels a client may ask for. */
const MCP_LOG_LEVEL = { debug: "debug", info: "info", warn: "warning", error: "error" } as const satisfies Record<string, LoggingLevel>;

const LOG_SEVERITY: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/**
 * Whether a tool's log line goes to the client too: the level a 2025-era client asked for with
 * `logging/setLevel` (undefined: it asked for none), or "request" on a 2026-07-28 instance, where
 * the SDK reads the request's own `logLevel` (absent: none).
 */
type LogGate = (() => LoggingLevel | undefined) | "request";

/**
 * The logger a tool handler gets: every line goes to stderr as before, and also to the client as
 * a `notifications/message` of this request when the client asked for messages — a 2025-era
 * client with `logging/setLevel` (nothing before it), a 2026-07-28 request with the `logLevel`
 * key of its `_meta` envelope (absent: nothing is sent; the SDK's `ctx.mcpReq.log` applies it).
 */
function requestLogger(logger: Logger, ctx: ServerContext, tool: string, gate: LogGate): Logger {
  const forward = (level: keyof typeof MCP_LOG_LEVEL) => (message: string, fields?: LogFields) => {
    logger[level](message, fields);
    const mcpLevel = MCP_LOG_LEVEL[level];
    if (gate !== "request") {
      const asked = gate();
      if (asked === undefined || LOG_SEVERITY.indexOf(mcpLevel) < LOG_SEVERITY.indexOf(asked)) return;
    }
    void ctx.mcpReq.log(mcpLevel, fields ? { message, ...fields } : message, tool).catch(() => undefined);
  };
  return {
    debug: forward("debug"),
    info: forward("info"),
    warn: forward("warn"),
    error: forward("error"),
    child: (name) => requestLogger(logger.child(name), ctx, `${tool}:${name}`, gate),
  };
}

/**
 * Builds an MCP server from a definition: every tool and resource registered in one loop, inputs
 * and outputs validated with zod (L-mcp-compliance), the readiness and memory guards checked,
 * work run under a deadline with progress heartbeats (L-response-time), results rendered at the
 * chosen response level. The definition is prepared once; `instance()` makes SDK servers on it
 * (one per connection, or per request in the 2026-07-28 era), each cheap.
 */
export function createServer(definition: ServerDefinition): CreatedServer {
  const logger = definition.logger ?? createLogger({ name: definition.name });
  const tools = new Map<string, PreparedTool>();
  for (const tool of definition.tools) {
    if (tools.has(tool.name)) throw new Error(`Duplicate tool name: ${tool.name}`);
    tools.set(tool.name, prepareTool(tool, definition.responseLevel));
  }
  // Resource change notifications (resource-watch.ts): a 2025-era client subscribes to the
  // resources it wants to hear about; a 2026-07-28 client names them, and the list, in
  // subscriptions/listen. The list is watched only on request, so only the latter gets list_changed.
  // Every server answers resources/list, completion/complete and prompts/list, empty where it has
  // none: what a client may ask of any server (the 2026-07-28 conformance requirement set does).
  const capabilitiesFor = (era: "legacy" | "modern"): ServerCapabilities => ({
    tools: { listChanged: false },
    logging: {},
    resources: { listChanged: era === "modern", subscribe: true },
    completions: {},
    prompts: { listChanged: false },
  });
  const maxTokens = definition.maxResponseTokens ?? DEFAULT_MAX_RESPONSE_TOKENS;
  const resourceHandlers = createResourceHandlers(definition.resources ?? [], definition.resourceTemplates ?? [], {
    maxTokens,
    partTokens: Math.floor(maxTokens * PART_BUDGET_SHARE),
    page: { maxItems: definition.resourcePageSize ?? DEFAULT_PAGE_ITEMS, maxTokens: Math.floor(maxTokens * PAGE_BUDGET_SHARE) },
    logger,
  });
  const resourceWatch = new ResourceWatch({
    versionOf: resourceHandlers.version,
    listVersion: resourceHandlers.listVersion,
    pollMs: definition.resourcePollMs,
    logger,
  });

  const callTool = async (
    request: { params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } } },
    ctx: ServerContext,
    logGate: LogGate,
  ): Promise<CallToolResult> => {
    const prepared = tools.get(request.params.name);
    if (!prepared) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. Call tools/list to see the tools.`);
    }
    const tool = prepared.definition;
    const parsed = prepared.input().safeParse(request.params.arguments ?? {});
    if (!parsed.success) return errorResult(invalidInput(parsed.error));
    const { [RESPONSE_LEVEL_ARG]: requested, ...args } = parsed.data as Record<string, unknown> & {
      response_level?: ResponseLevel;
    };
    const progressToken = request.params._meta?.progressToken;
    const reporter = new ProgressReporter({
      heartbeatMs: definition.heartbeatMs ?? 1000,
      send:
        progressToken === undefined
          ? undefined
          : (report) =>
              ctx.mcpReq.notify({
                method: "notifications/progress",
                params: { progressToken, ...report },
              }),
      onError: (error) => logger.warn("progress notification failed", { error }),
    });
    // The one place a call's level is decided; the handler builds for it and the answer is rendered at it.
    const level = resolveResponseLevel({
      requested,
      implied: tool.levelFromInput?.(args),
      toolDefault: tool.responseLevel,
      serverDefault: definition.responseLevel,
    });
    const timeoutMs = tool.timeoutMs ?? definition.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadlineAt = Date.now() + timeoutMs;
    // The same signal ends the call on a client's cancel (notifications/cancelled, or a 2026-07-28
    // HTTP request whose stream the client closed) and at the deadline (withDeadline).
    const signal = ctx.mcpReq.signal;
    try {
      reporter.start();
      // A model still loading gets the call's time to finish (heartbeats go on meanwhile); keep a
      // little of it so the answer can still be NOT_READY with its progress rather than TIMEOUT.
      for (const readiness of tool.requires ?? []) {
        await readiness.waitWhileLoading(deadlineAt - Date.now() - READINESS_MARGIN_MS, signal);
        readiness.assertReady();
      }
      tool.memoryGuard?.assertWithinBound(`${tool.name}`);
      const toolLogger = requestLogger(logger, ctx, tool.name, logGate);
      const response = await withDeadline(
        (deadlineSignal) => tool.handler(args, { signal: deadlineSignal, progress: (r) => reporter.report(r), level, logger: toolLogger }),
        { timeoutMs: Math.max(1, deadlineAt - Date.now()), signal, what: tool.name },
      );
      const body = response.toResponse(level);
      const text = JSON.stringify(body);
      const tokens = await tokensAboveBudget(text, maxTokens);
      if (tokens !== undefined) {
        logger.warn(`tool ${tool.name} answer withheld: ~${tokens} tokens at ${level}, above ${maxTokens}`);
        const changesState = !tool.annotations.readOnlyHint;
        return errorResult(responseTooLarge({ tool: tool.name, level, tokens, maxTokens, response, changesState }));
      }
      const checked = tool.output.safeParse(body);
      if (!checked.success) {
        logger.error(`tool ${tool.name} produced output that does not match its schema`, {
          issues: checked.error.issues.slice(0, 5),
        });
        return errorResult(new ToolError("INTERNAL", `${tool.name} produced an invalid result; this is a server bug.`));
      }
      return { content: [{ type: "text", text }], structuredContent: body };
    } catch (thrown) {
      const error = toToolError(thrown);
      if (error.code === "INTERNAL") {
        logger.error(`tool ${tool.name} failed`, { error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown) });
      }
      return errorResult(error);
    } finally {
      reporter.stop();
    }
  };

  const open = new Set<Server>();
  let closing = false;
  const instance = (options: InstanceOptions = {}): Server => {
    if (closing) throw new Error(`${definition.name} is shutting down`);
    const era = options.era ?? "legacy";
    const capabilities = capabilitiesFor(era);
    const server = new Server(
      { name: definition.name, version: definition.version, ...(definition.title ? { title: definition.title } : {}) },
      {
        capabilities,
        // Not the SDK's default Ajv (built in the constructor): see json-schema-validator.ts.
        jsonSchemaValidator: zodJsonSchemaValidator,
        cacheHints: CACHE_HINTS,
        instructions: definition.instructions ? `${definition.instructions}\n\n${RESPONSE_LEVELS_NOTE}` : RESPONSE_LEVELS_NOTE,
      },
    );
    server.setRequestHandler("tools/list", () => ({ tools: [...tools.values()].map((t) => t.listing()) }));
    // 2025 era: log messages go to the client once it asks with logging/setLevel (in place of the
    // SDK's handler, whose absent level means "send everything").
    let askedLevel: LoggingLevel | undefined;
    if (era === "legacy") {
      server.setRequestHandler("logging/setLevel", (request) => {
        askedLevel = request.params.level;
        return {};
      });
    }
    const logGate: LogGate = era === "modern" ? "request" : () => askedLevel;
    server.setRequestHandler("tools/call", (request, ctx) => callTool(request, ctx, logGate));
    server.setRequestHandler("prompts/list", () => ({ prompts: [] }));
    server.setRequestHandler("prompts/get", (request) => {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt: ${request.params.name}. This server has no prompts; its tools are in tools/list.`,
      );
    });
    server.setRequestHandler("resources/list", (request) => resourceHandlers.list(request.params?.cursor));
    server.setRequestHandler("resources/templates/list", (request) => resourceHandlers.listTemplates(request.params?.cursor));
    server.setRequestHandler("resources/read", (request) => resourceHandlers.read(request.params.uri));
    server.setRequestHandler("completion/complete", (request) => resourceHandlers.complete(request.params));
    const releases: (() => void)[] = [];
    // 2025 era: the resources this connection subscribed to, each watched while subscribed.
    const subscribed = new Map<string, () => void>();
    server.setRequestHandler("resources/subscribe", async (request) => {
      const { uri } = request.params;
      if (!subscribed.has(uri)) subscribed.set(uri, resourceWatch.watch(uri));
      // Answered once the hash to compare against is known: a change right after is not missed.
      await resourceWatch.ready(uri);
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", (request) => {
      subscribed.get(request.params.uri)?.();
      subscribed.delete(request.params.uri);
      return {};
    });
    releases.push(() => {
      for (const release of subscribed.values()) release();
      subscribed.clear();
    });
    if (!options.perRequest) {
      const send = (change: ResourceChange) => {
        const sent =
          change.kind === "list_changed"
            ? era === "modern"
              ? server.sendResourceListChanged()
              : undefined
            : era === "modern" || subscribed.has(change.uri)
              ? server.sendResourceUpdated({ uri: change.uri })
              : undefined;
        void sent?.catch((error: unknown) => logger.debug("a resource change notification was not sent", { error }));
      };
      releases.push(resourceWatch.onChange(send));
    }
    open.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      open.delete(server);
      for (const release of releases.splice(0)) release();
      previous?.();
    };
    return server;
  };

  let first: Server | undefined;
  let closed: Promise<void> | undefined;
  const cleanup = () => {
    closed ??= (async () => {
      closing = true;
      resourceWatch.close();
      try {
        await Promise.allSettled([...open].map((server) => server.close()));
      } finally {
        await definition.onClose?.();
      }
    })();
    return closed;
  };
  return {
    get server() {
      return (first ??= instance());
    },
    instance,
    definition,
    resourceWatch,
    cleanup,
  };
}
