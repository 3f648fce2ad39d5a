import { ToolError } from "./errors.js";
import { RESPONSE_LEVELS, levelIncludes, type ResponseLevel, type ToolResponse } from "./response-level.js";

/**
 * Token budget of a tool response. Claude Code refuses an MCP tool result above 25,000 tokens
 * (its `MAX_MCP_OUTPUT_TOKENS` default), so no response of ours may pass that: core checks every
 * rendered result against the budget before it leaves the server (createServer), which makes the
 * bound hold by construction for every tool, whatever its limits and inputs.
 *
 * The estimator counts no real tokens: a token is taken as 4 characters (UTF-16 code units) of the
 * JSON text — the text a client shows the model (structuredContent, or the same JSON in the text
 * content). It is the usual rule of thumb for English prose and code. JSON dense with short ids and
 * punctuation tokenizes nearer 3 characters per token, so for such output the estimate is low;
 * tools keep their default answers well under the budget, and the budget is a backstop.
 */
export const CHARS_PER_TOKEN = 4;

/** Claude Code's default limit on one MCP tool result, in tokens. */
export const DEFAULT_MAX_RESPONSE_TOKENS = 25_000;

/** Estimated tokens of a JSON text (chars / 4, rounded up). */
export function estimateJsonTokens(json: string): number {
  return Math.ceil(json.length / CHARS_PER_TOKEN);
}

/** Estimated tokens of a value as JSON. */
export function estimateResponseTokens(body: unknown): number {
  return estimateJsonTokens(JSON.stringify(body) ?? "");
}

/**
 * The error that replaces a result above the budget: how big it was, and what would fit — a lower
 * response level when one does, else asking for fewer items.
 */
export function responseTooLarge(options: {
  tool: string;
  level: ResponseLevel;
  tokens: number;
  maxTokens: number;
  response: ToolResponse;
  /** The tool changes state: its effects took place even though the answer is withheld. */
  changesState: boolean;
}): ToolError {
  const { tool, level, tokens, maxTokens, response } = options;
  const lower: Partial<Record<ResponseLevel, number>> = {};
  for (const candidate of RESPONSE_LEVELS) {
    if (levelIncludes(candidate, level)) continue;
    lower[candidate] = estimateResponseTokens(response.toResponse(candidate));
  }
  const fitting = RESPONSE_LEVELS.filter((l) => (lower[l] ?? Infinity) <= maxTokens).at(-1);
  const ask = fitting
    ? `Call again with response_level "${fitting}" (~${lower[fitting]} tokens), or ask for fewer items (a smaller limit, a narrower filter, fewer files).`
    : "Ask for fewer items: a smaller limit, a narrower filter or fewer files (page with offset where the tool offers it).";
  const effects = options.changesState ? " The call's effects have taken place; only its answer was withheld." : "";
  return new ToolError(
    "RESOURCE_EXHAUSTED",
    `The ${level} answer of ${tool} is ~${tokens} tokens (chars/4), above the ${maxTokens}-token limit MCP clients such as Claude Code accept, so it was not sent.${effects}`,
    { recoverable: true, suggestion: ask, details: { estimatedTokens: tokens, maxTokens, level, lowerLevels: lower } },
  );
}
