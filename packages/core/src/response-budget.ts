import type { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { ToolError } from "./errors.js";
import { RESPONSE_LEVELS, levelIncludes, type ResponseLevel, type ToolResponse } from "./response-level.js";

/**
 * Token budget of a tool response. Claude Code refuses an MCP tool result above 25,000 tokens
 * (its `MAX_MCP_OUTPUT_TOKENS` default), so no response of ours may pass that: core checks every
 * rendered result against the budget before it leaves the server (createServer), which makes the
 * bound hold by construction for every tool, whatever its limits and inputs.
 *
 * Tool answers are counted in o200k tokens (gpt-tokenizer), the stand-in for Claude's tokenizer,
 * of the JSON text a client shows the model (structuredContent, or the same JSON in the text
 * content), and never undercounted: every o200k token covers at least one UTF-8 byte, so a text of
 * at most `maxTokens` bytes fits without tokenizing. Only a longer one is tokenized, with the
 * tokenizer loaded on that first need (a dynamic import: ~0.5 s once, never at server start).
 *
 * `estimateJsonTokens` (chars/4) remains the cheap estimate that resource pages and parts are cut by.
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

interface Tokenizer {
  count: typeof countTokens;
  /** o200k's pre-tokenizer: BPE runs within each of its pieces. */
  pieces: RegExp;
}

let tokenizer: Tokenizer | undefined;
let loading: Promise<Tokenizer> | undefined;

async function loadTokenizer(): Promise<Tokenizer> {
  const [{ countTokens }, { O200K_TOKEN_SPLIT_REGEX }] = await Promise.all([
    import("gpt-tokenizer/encoding/o200k_base"),
    import("gpt-tokenizer/encodingParams/constants"),
  ]);
  return { count: countTokens, pieces: O200K_TOKEN_SPLIT_REGEX };
}

/** Special-token spellings such as `<|endoftext|>` in an answer are counted as the text they are. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * BPE takes quadratic time in a piece's length (a 90,000-character run of one letter: ~9 s), so a
 * pre-tokenizer piece longer than this is counted as its UTF-8 bytes, which it never has fewer
 * tokens than.
 */
const LONG_PIECE_CHARS = 1_000;

function countWith(t: Tokenizer, text: string): number {
  let long = false;
  for (const [piece] of text.matchAll(t.pieces)) {
    if (piece.length > LONG_PIECE_CHARS) {
      long = true;
      break;
    }
  }
  if (!long) return t.count(text, AS_TEXT);
  let tokens = 0;
  for (const [piece] of text.matchAll(t.pieces)) {
    tokens += piece.length > LONG_PIECE_CHARS ? Buffer.byteLength(piece, "utf8") : t.count(piece, AS_TEXT);
  }
  return tokens;
}

/**
 * The o200k tokens of `text` when they are more than `maxTokens`, else undefined: texts of at most
 * `maxTokens` UTF-8 bytes are never tokenized (bytes ≥ tokens), longer ones are counted (exactly,
 * but for pieces over 1,000 characters, counted as their bytes).
 */
export async function tokensAboveBudget(text: string, maxTokens: number): Promise<number | undefined> {
  if (Buffer.byteLength(text, "utf8") <= maxTokens) return undefined;
  const tokens = countWith(await loadedTokenizer(), text);
  return tokens > maxTokens ? tokens : undefined;
}

/** Loads the tokenizer now (once): for a checker that then counts synchronously (`jsonTokensAtMost`). */
export async function preloadResponseTokenizer(): Promise<void> {
  await loadedTokenizer();
}

async function loadedTokenizer(): Promise<Tokenizer> {
  tokenizer ??= await (loading ??= loadTokenizer());
  return tokenizer;
}

/**
 * Tokens of a JSON text, never fewer than its o200k tokens: counted as `tokensAboveBudget` counts
 * once the tokenizer has been loaded (by it or `preloadResponseTokenizer`), else its UTF-8 bytes.
 */
export function jsonTokensAtMost(json: string): number {
  return tokenizer ? countWith(tokenizer, json) : Buffer.byteLength(json, "utf8");
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
    lower[candidate] = jsonTokensAtMost(JSON.stringify(response.toResponse(candidate)) ?? "");
  }
  const fitting = RESPONSE_LEVELS.filter((l) => (lower[l] ?? Infinity) <= maxTokens).at(-1);
  const ask = fitting
    ? `Call again with response_level "${fitting}" (~${lower[fitting]} tokens), or ask for fewer items (a smaller limit, a narrower filter, fewer files).`
    : "Ask for fewer items: a smaller limit, a narrower filter or fewer files (page with offset where the tool offers it).";
  const effects = options.changesState ? " The call's effects have taken place; only its answer was withheld." : "";
  return new ToolError(
    "RESOURCE_EXHAUSTED",
    `The ${level} answer of ${tool} is ~${tokens} tokens (o200k), above the ${maxTokens}-token limit MCP clients such as Claude Code accept, so it was not sent.${effects}`,
    { recoverable: true, suggestion: ask, details: { estimatedTokens: tokens, maxTokens, level, lowerLevels: lower } },
  );
}
