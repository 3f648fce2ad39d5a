import type { ToolErrorBody } from "../errors.js";

/**
 * Most characters an error body may have as JSON (~4,000 tokens). An error that echoes what it
 * was given (a 1 MB id in "not found: …", 100,000 rejected items) would otherwise pass Claude
 * Code's 25,000-token limit; the fuzz harness (tests/fuzz) found such answers. Bodies within the
 * bound are sent unchanged.
 */
export const MAX_ERROR_BODY_CHARS = 16_000;
const MAX_TEXT = 2_000;
const MAX_DETAIL_TEXT = 200;
const MAX_DETAIL_ITEMS = 20;
const MAX_DETAIL_DEPTH = 4;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function boundDetail(value: unknown, depth: number): unknown {
  if (typeof value === "string") return cut(value, MAX_DETAIL_TEXT);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DETAIL_DEPTH) return "…";
  if (Array.isArray(value)) return value.slice(0, MAX_DETAIL_ITEMS).map((item) => boundDetail(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, MAX_DETAIL_ITEMS)) out[cut(key, MAX_DETAIL_TEXT)] = boundDetail(item, depth + 1);
  return out;
}

function jsonLength(body: ToolErrorBody): number {
  try {
    return JSON.stringify(body).length;
  } catch {
    // Too deep to serialise (an echoed deeply nested argument): certainly too big.
    return Number.POSITIVE_INFINITY;
  }
}

/** The body as is when it is small enough; else with long texts cut and details bounded or left out. */
export function boundedErrorBody(body: ToolErrorBody): ToolErrorBody {
  if (jsonLength(body) <= MAX_ERROR_BODY_CHARS) return body;
  const { details, ...rest } = body.error;
  const error = { ...rest, message: cut(rest.message, MAX_TEXT), suggestion: cut(rest.suggestion, MAX_TEXT) };
  if (details !== undefined) {
    const bounded = { error: { ...error, details: boundDetail(details, 0) as Record<string, unknown> } };
    if (jsonLength(bounded) <= MAX_ERROR_BODY_CHARS) return bounded;
  }
  return { error };
}
