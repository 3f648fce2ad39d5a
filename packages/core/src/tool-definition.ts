import type { z } from "zod";
import type { Logger } from "./logger.js";
import type { ResponseLevel, ToolResponse } from "./response-level.js";
import type { Readiness } from "./guards/readiness.js";
import type { MemoryGuard } from "./guards/memory.js";
import type { ProgressReport } from "./guards/progress.js";

/** Tool annotations are always set explicitly (no client-side guessing). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * The annotations vocabulary: every tool takes one of these, named after MCP's hints (what a client
 * may assume before calling). Frozen, so no tool changes another's.
 */
/** Only reads; the same call again answers the same (readOnlyHint). */
export const READ_ONLY: Readonly<ToolAnnotations> = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
/** Changes state by adding only, never overwriting or deleting; each call adds again (destructiveHint false). */
export const ADDITIVE: Readonly<ToolAnnotations> = Object.freeze({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
});
/** May overwrite or delete; the same call again changes nothing more (destructiveHint and idempotentHint). */
export const DESTRUCTIVE_IDEMPOTENT: Readonly<ToolAnnotations> = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
});
/** May overwrite or delete, and the same call again may do more (destructiveHint, not idempotent). */
export const DESTRUCTIVE: Readonly<ToolAnnotations> = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
});

/** `annotations` for a tool that reaches a service outside this machine when `reaches` (openWorldHint). */
export function openWorld(annotations: Readonly<ToolAnnotations>, reaches = true): Readonly<ToolAnnotations> {
  return reaches ? Object.freeze({ ...annotations, openWorldHint: true }) : annotations;
}

export interface ToolContext {
  /** Aborts at the deadline or when the client cancels: pass it into the work itself. */
  signal: AbortSignal;
  /** Reports progress to a client that asked for it (no-op otherwise). */
  progress: (report: ProgressReport) => void;
  /** The level this call will render at. */
  level: ResponseLevel;
  logger: Logger;
}

/** One tool: one file, one definition object. */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** Input arguments (core adds the optional `response_level`; unknown keys are refused). */
  input: I;
  /** The full-level output; fields not present at every level must be optional. */
  output: O;
  annotations: ToolAnnotations;
  /** Deadline for one call (L-response-time); defaults to the server's. */
  timeoutMs?: number;
  /** This tool's default response level. */
  responseLevel?: ResponseLevel;
  /**
   * The level another argument asks for (a format switch such as `format: "detailed"`), used when
   * the call gives no `response_level`: such switches are requests for a level, never a second
   * way to render one.
   */
  levelFromInput?: (input: z.infer<I>) => ResponseLevel | undefined;
  /** Readiness this tool needs (L-adapter-required). */
  requires?: readonly Readiness[];
  /** Memory guard checked before each call (L-memory-bound). */
  memoryGuard?: MemoryGuard;
  handler: (input: z.infer<I>, ctx: ToolContext) => Promise<ToolResponse>;
}

/** Identity helper that keeps the handler's input type tied to its schema. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return definition;
}

/**
 * A schema built on first use: a tool's input and output schemas are needed only to list the tools
 * or check a call, so building them at import only delays the server's start (zod builds cost CPU).
 * Give the definition getters: `get input() { return input(); }`.
 */
export function lazySchema<S>(build: () => S): () => S {
  let schema: S | undefined;
  return () => (schema ??= build());
}

// Tool lists are heterogeneous; the factory only needs the erased shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, any>;
