import { z } from "zod";

/**
 * Error codes a tool may return (contract, see docs/architecture.md). Each maps to an HTTP-like
 * status so clients and people read it the same way.
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INTERNAL: 500,
  UPSTREAM_ERROR: 502,
  NOT_READY: 503,
  TIMEOUT: 504,
  RESOURCE_EXHAUSTED: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Codes a caller can usually recover from by retrying or changing the call. */
const RECOVERABLE_BY_DEFAULT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "INVALID_INPUT",
  "NOT_FOUND",
  "CONFLICT",
  "UPSTREAM_ERROR",
  "NOT_READY",
  "TIMEOUT",
  "RESOURCE_EXHAUSTED",
]);

const DEFAULT_SUGGESTION: Record<ErrorCode, string> = {
  INVALID_INPUT: "Fix the arguments named in the message and call the tool again.",
  FORBIDDEN: "Use a path or operation inside what this server is configured to allow.",
  NOT_FOUND: "Check the id or path; list the available items first.",
  CONFLICT: "Re-read the current state and retry the change.",
  INTERNAL: "This is a bug in the server; report it with the message.",
  UPSTREAM_ERROR: "The service behind this tool failed; retry later or handle the task directly.",
  NOT_READY: "Wait for loading to finish or configure what the message says is missing.",
  TIMEOUT: "Retry with a smaller request or a longer deadline.",
  RESOURCE_EXHAUSTED: "Free memory, lower the load, or raise the configured bound.",
};

export interface ToolErrorOptions {
  recoverable?: boolean;
  suggestion?: string;
  /** Extra machine-readable facts (field names, reasons, progress); rendered under `details`. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * A failure the calling model can act on. Tool handlers throw it; the server factory renders it
 * as a tool result with `isError: true` (never a stack trace). Programmer and protocol faults are
 * plain errors and are rendered as `INTERNAL`.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly recoverable: boolean;
  readonly suggestion: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.recoverable = options.recoverable ?? RECOVERABLE_BY_DEFAULT.has(code);
    this.suggestion = options.suggestion ?? DEFAULT_SUGGESTION[code];
    this.details = options.details;
  }

  toBody(): ToolErrorBody {
    return {
      error: {
        code: this.code,
        status: this.status,
        message: this.message,
        recoverable: this.recoverable,
        suggestion: this.suggestion,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export const ToolErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
    status: z.number().int(),
    message: z.string(),
    recoverable: z.boolean(),
    suggestion: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ToolErrorBody = z.infer<typeof ToolErrorBodySchema>;

export function isToolError(value: unknown): value is ToolError {
  return value instanceof ToolError;
}

/** Turns anything thrown into a ToolError; unknown faults become INTERNAL with no stack. */
export function toToolError(value: unknown): ToolError {
  if (value instanceof ToolError) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new ToolError("INTERNAL", `Internal error: ${message}`, { cause: value });
}
