import { ToolError } from "../errors.js";
import { redactSecret } from "./gemini-api-key.js";
import type { FailureVerdict } from "./retry.js";

/**
 * What went wrong in a call to the Gemini API, read from the SDK's `ApiError` (whose message is
 * the JSON error body) or from a network error, with the API key redacted from every string.
 */
export interface GeminiFailure {
  /** HTTP status when the server answered. */
  httpStatus?: number | undefined;
  /** Google's status name, e.g. RESOURCE_EXHAUSTED, INVALID_ARGUMENT. */
  status?: string | undefined;
  message: string;
  /** The server's RetryInfo hint, when it sent one. */
  retryDelayMs?: number | undefined;
}

/** One attempt took longer than the per-request timeout. */
export class GeminiAttemptTimeout extends Error {
  override readonly name = "GeminiAttemptTimeout";
  constructor(readonly timeoutMs: number) {
    super(`Gemini did not answer within ${timeoutMs} ms.`);
  }
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const MAX_MESSAGE_CHARS = 400;

interface GoogleErrorBody {
  error?: {
    code?: unknown;
    message?: unknown;
    status?: unknown;
    details?: unknown;
  };
}

function isApiError(error: unknown): error is Error & { status: number } {
  return error instanceof Error && error.name === "ApiError" && typeof (error as { status?: unknown }).status === "number";
}

/** "1.5s" -> 1500 (google.protobuf.Duration in JSON). */
function durationMs(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

function retryDelayFrom(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = durationMs((detail as { retryDelay?: unknown } | null)?.retryDelay);
    if (delay !== undefined) return delay;
  }
  return undefined;
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS)}…` : oneLine;
}

export function describeGeminiFailure(error: unknown, apiKey: string): GeminiFailure {
  if (isApiError(error)) {
    let body: GoogleErrorBody | undefined;
    try {
      body = JSON.parse(error.message) as GoogleErrorBody;
    } catch {
      body = undefined;
    }
    const inner = body?.error;
    const message = typeof inner?.message === "string" && inner.message.length > 0 ? inner.message : error.message;
    return {
      httpStatus: error.status,
      status: typeof inner?.status === "string" ? inner.status : undefined,
      message: clip(redactSecret(message, apiKey)),
      retryDelayMs: retryDelayFrom(inner?.details),
    };
  }
  if (error instanceof Error) {
    // undici's "fetch failed" hides the reason (ECONNREFUSED, ENOTFOUND...) in `cause`.
    const cause = (error as { cause?: unknown }).cause;
    const code = (cause as { code?: unknown } | undefined)?.code;
    const reason = typeof code === "string" ? `${error.message} (${code})` : error.message;
    return { message: clip(redactSecret(reason, apiKey)) };
  }
  return { message: clip(redactSecret(String(error), apiKey)) };
}

export function isRetryableFailure(failure: GeminiFailure): boolean {
  // No HTTP status: the request never got an answer (connection refused, reset, DNS).
  return failure.httpStatus === undefined || RETRYABLE_STATUS.has(failure.httpStatus) || failure.httpStatus >= 500;
}

function statusText(failure: GeminiFailure): string {
  if (failure.httpStatus === undefined) return "no HTTP answer";
  return failure.status ? `HTTP ${failure.httpStatus} ${failure.status}` : `HTTP ${failure.httpStatus}`;
}

export interface GeminiCallContext {
  model: string;
  apiVersion: string;
  apiKey: string;
}

/** A failure that retrying will not fix (bad key, bad request, unknown model). */
function rejectedError(failure: GeminiFailure, context: GeminiCallContext): ToolError {
  const keyProblem = failure.httpStatus === 401 || failure.httpStatus === 403 || /api[ _-]?key/i.test(failure.message);
  const suggestion = keyProblem
    ? "Check the Gemini API key (GOOGLE_API_KEY or GEMINI_API_KEY) and that it may use the Generative Language API."
    : failure.httpStatus === 404
      ? `Check the model name (${context.model}) and the API version (${context.apiVersion}).`
      : "The request was rejected: check the texts and the outputDimensionality, or use the built-in embedder.";
  return new ToolError("UPSTREAM_ERROR", `Gemini embedding request failed (${statusText(failure)}): ${failure.message}`, {
    recoverable: false,
    suggestion,
    details: {
      httpStatus: failure.httpStatus,
      status: failure.status,
      model: context.model,
      apiVersion: context.apiVersion,
    },
  });
}

/** Decides, for `withRetry`, whether a failed attempt is worth another try. */
export function classifyGeminiError(error: unknown, context: GeminiCallContext): FailureVerdict {
  if (error instanceof ToolError) return { retry: false, error };
  if (error instanceof GeminiAttemptTimeout) return { retry: true, error };
  if (error instanceof SyntaxError) {
    // A 2xx answer whose body is not JSON: a broken proxy or endpoint, not a passing hiccup.
    return {
      retry: false,
      error: new ToolError("UPSTREAM_ERROR", `Gemini answered with a body that is not JSON: ${error.message}`, {
        recoverable: false,
        suggestion: "Check baseUrl: it should point at the Gemini API or a faithful proxy of it.",
        details: { model: context.model, apiVersion: context.apiVersion },
      }),
    };
  }
  const failure = describeGeminiFailure(error, context.apiKey);
  if (isRetryableFailure(failure)) return { retry: true, error: failure, hintMs: failure.retryDelayMs };
  return { retry: false, error: rejectedError(failure, context) };
}

/** The error for the last retryable failure once the attempts have run out. */
export function exhaustedError(last: unknown, attempts: number, context: GeminiCallContext): ToolError {
  if (last instanceof GeminiAttemptTimeout) {
    return new ToolError("TIMEOUT", `Gemini did not answer an embedding request within ${last.timeoutMs} ms (${attempts} attempts).`, {
      details: { timeoutMs: last.timeoutMs, attempts, model: context.model },
    });
  }
  const failure = last as GeminiFailure;
  const suggestion =
    failure.httpStatus === 429
      ? "Gemini is rate-limiting this key: retry later, embed fewer texts at once, or use the built-in embedder."
      : "Gemini is unavailable or unreachable: retry later or use the built-in embedder.";
  return new ToolError(
    "UPSTREAM_ERROR",
    `Gemini embedding request failed after ${attempts} attempts (${statusText(failure)}): ${failure.message}`,
    {
      recoverable: true,
      suggestion,
      details: {
        httpStatus: failure.httpStatus,
        status: failure.status,
        attempts,
        model: context.model,
        apiVersion: context.apiVersion,
      },
    },
  );
}
