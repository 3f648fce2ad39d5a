/**
 * resources/read within the response budget. A resource whose read would pass it (Claude Code's
 * 25,000 tokens, counted in o200k tokens of the result's JSON as every answer is: response-budget.ts)
 * is never sent whole:
 *
 * - text (Markdown, plain text) is split at line boundaries into parts that each fit. Reading
 *   the URI gives part 1; every part starts with a notice — the size, which lines it holds, the
 *   next part's URI (`<uri>?part=2`) and the definition's suggestion — and every part but the last
 *   ends with a line naming the next. The parts joined (notices left out) are the text itself.
 * - JSON and binary content is refused with the JSON-RPC error -32603 `RESOURCE_EXHAUSTED: …`
 *   giving the size and what to use instead (a part of a JSON document is not JSON; a definition
 *   can ask for parts all the same, or refuse text).
 *
 * Parts are a function of the text alone, so each part URI returns the same bytes until the
 * source changes (L-idempotent-resource); every part carries the version of the whole text.
 */
import { ProtocolError, ProtocolErrorCode as RpcErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
import type { ResourceOversize } from "../resource-definition.js";
import { CHARS_PER_TOKEN, tokensAboveBudget } from "../response-budget.js";

/** The `_meta` key under which a part carries `{part, parts, next?}`. */
export const RESOURCE_PART_META = "local-mcp/part";
/** Share of the response budget one part may take: 20,000 of 25,000 tokens by default. */
export const PART_BUDGET_SHARE = 0.8;

const PART_SUFFIX = /[?&]part=([1-9]\d{0,6})$/;

/** `<uri>?part=N` (or `&part=N` when the URI has a query already). */
export function partUri(base: string, part: number): string {
  return `${base}${base.includes("?") ? "&" : "?"}part=${part}`;
}

/** The resource and part a part URI names, or undefined for any other URI. */
export function parsePartUri(uri: string): { base: string; part: number } | undefined {
  const match = PART_SUFFIX.exec(uri);
  if (!match) return undefined;
  return { base: uri.slice(0, match.index), part: Number(match[1]) };
}

/** UTF-16 units one code point takes inside a JSON string (JSON.stringify's escapes). */
function escapedUnits(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return [0x08, 0x09, 0x0a, 0x0c, 0x0d].includes(code) ? 2 : 6;
  if (code >= 0xd800 && code <= 0xdfff) return 6; // a lone surrogate
  return char.length;
}

/** Length of `text` as a JSON string's content. */
export function escapedLength(text: string): number {
  return JSON.stringify(text).length - 2;
}

export interface TextPart {
  text: string;
  firstLine: number;
  lastLine: number;
}

/**
 * Splits `text` into parts of at most `maxChars` (as JSON-escaped text): whole lines where they
 * fit, a line longer than a part cut between code points. Joined, the parts are `text`.
 */
export function splitText(text: string, maxChars: number): TextPart[] {
  const max = Math.max(6, Math.floor(maxChars));
  const pieces: { text: string; size: number; line: number }[] = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    const piece = index < lines.length - 1 ? `${line}\n` : line;
    const size = escapedLength(piece);
    if (size <= max) {
      pieces.push({ text: piece, size, line: index + 1 });
      return;
    }
    let chunk = "";
    let chunkSize = 0;
    for (const char of piece) {
      const units = escapedUnits(char);
      if (chunkSize + units > max) {
        pieces.push({ text: chunk, size: chunkSize, line: index + 1 });
        chunk = "";
        chunkSize = 0;
      }
      chunk += char;
      chunkSize += units;
    }
    if (chunk) pieces.push({ text: chunk, size: chunkSize, line: index + 1 });
  });
  const parts: TextPart[] = [];
  let current: { texts: string[]; size: number; firstLine: number; lastLine: number } | undefined;
  for (const piece of pieces) {
    if (current && current.size + piece.size > max) {
      parts.push({ text: current.texts.join(""), firstLine: current.firstLine, lastLine: current.lastLine });
      current = undefined;
    }
    current ??= { texts: [], size: 0, firstLine: piece.line, lastLine: piece.line };
    current.texts.push(piece.text);
    current.size += piece.size;
    current.lastLine = piece.line;
  }
  if (current) parts.push({ text: current.texts.join(""), firstLine: current.firstLine, lastLine: current.lastLine });
  return parts;
}

const DEFAULT_SUGGESTION =
  "Read a narrower resource (see resources/list and resources/templates/list) or use the server's tools, which take limits.";

export function oversizeSuggestion(
  oversize: ResourceOversize | undefined,
  uri: string,
  variables: Readonly<Record<string, string>>,
): string | undefined {
  const suggestion = oversize?.suggestion;
  return typeof suggestion === "function" ? suggestion(uri, variables) : suggestion;
}

/** The error that replaces a read above the budget that is not split. */
export function resourceTooLarge(uri: string, tokens: number, maxTokens: number, suggestion: string | undefined): ProtocolError {
  const advice = suggestion ?? DEFAULT_SUGGESTION;
  return new ProtocolError(
    RpcErrorCode.InternalError,
    `RESOURCE_EXHAUSTED: ${uri} is ~${tokens} tokens (o200k, of its JSON), above the ${maxTokens}-token limit MCP clients such as Claude Code accept, so it was not sent. ${advice}`,
    { uri, code: "RESOURCE_EXHAUSTED", estimatedTokens: tokens, maxTokens, suggestion: advice },
  );
}

const fmt = (n: number) => n.toLocaleString("en-US");

export interface PartOptions {
  /** The resource's own URI (without `?part=`). */
  uri: string;
  text: string;
  /** o200k tokens of the whole read. */
  tokens: number;
  /** The text's content hash: parts found for it are kept for the next part's read. */
  version: string;
  maxTokens: number;
  suggestion: string | undefined;
}

export interface RenderedPart {
  text: string;
  part: number;
  parts: number;
  next?: string;
}

/** Room a part keeps for its notices, its URI, mimeType and `_meta` around the text: in JSON-escaped characters, and in UTF-8 bytes (never fewer than its tokens). */
function reserved(options: PartOptions): { chars: number; bytes: number } {
  const worst = partNotice(options, {
    part: 9_999_999,
    parts: 9_999_999,
    firstLine: 99_999_999,
    lastLine: 99_999_999,
    totalLines: 99_999_999,
  });
  const head = JSON.stringify(worst.head);
  const tail = JSON.stringify(worst.tail);
  return {
    chars: escapedLength(worst.head) + escapedLength(worst.tail) + 4 * options.uri.length + 600,
    bytes: Buffer.byteLength(head) + Buffer.byteLength(tail) + 4 * Buffer.byteLength(JSON.stringify(options.uri)) + 600,
  };
}

function partNotice(
  options: PartOptions,
  at: { part: number; parts: number; firstLine: number; lastLine: number; totalLines: number },
): { head: string; tail: string } {
  const next = at.part < at.parts ? partUri(options.uri, at.part + 1) : undefined;
  const lines = at.firstLine === at.lastLine ? `line ${fmt(at.firstLine)}` : `lines ${fmt(at.firstLine)}–${fmt(at.lastLine)}`;
  const head =
    `[local-mcp: ${options.uri} is ~${fmt(options.tokens)} tokens, above the ${fmt(options.maxTokens)}-token limit of MCP clients such as Claude Code, ` +
    `so it comes in ${at.parts} parts. This is part ${at.part} of ${at.parts}: ${lines} of ${fmt(at.totalLines)}. ` +
    (next ? `Next: read ${next}.` : "This is the last part.") +
    (options.suggestion ? ` ${options.suggestion}` : "") +
    "]\n\n";
  const tail = next ? `\n\n[local-mcp: continued in ${next}]` : "";
  return { head, tail };
}

/** Rooms (in JSON-escaped characters) found for recent texts: a split is re-derived for every part read. */
const ROOMS = new Map<string, number>();
const ROOMS_KEPT = 32;

/**
 * The largest room, from `room` down, whose parts each hold at most `limit` o200k tokens (as JSON
 * text): a split by characters can hold twice the tokens where the text is dense (ids, code,
 * symbols), so each part is counted, and the room shrinks until every part fits. The answer is a
 * function of the text alone, so every part read of one text sees the same parts.
 */
async function fittingRoom(text: string, room: number, limit: number, key: string): Promise<number | undefined> {
  const known = ROOMS.get(key);
  if (known !== undefined) return known;
  for (let size = room; size >= 1_000; size = Math.floor(size * 0.9)) {
    const parts = splitText(text, size);
    let fits = true;
    for (const part of parts) {
      if ((await tokensAboveBudget(JSON.stringify(part.text), limit)) !== undefined) {
        fits = false;
        break;
      }
    }
    if (fits) {
      if (ROOMS.size >= ROOMS_KEPT) ROOMS.delete(ROOMS.keys().next().value as string);
      ROOMS.set(key, size);
      return size;
    }
  }
  return undefined;
}

/**
 * Part `part` (from 1) of a text above the budget, with its notices; undefined when parts of
 * `partTokens` cannot hold the notices (an absurdly long URI or suggestion) — refuse then.
 * Each part's text holds at most `partTokens` o200k tokens less the notices' room.
 * A part number past the last is a resource-not-found error (-32602).
 */
export async function renderPart(options: PartOptions, part: number, partTokens: number): Promise<RenderedPart | undefined> {
  const room = partTokens * CHARS_PER_TOKEN - reserved(options).chars;
  const limit = partTokens - reserved(options).bytes;
  if (room < 1_000 || limit < 250) return undefined;
  const fitting = await fittingRoom(options.text, room, limit, `${partTokens}:${options.version}`);
  if (fitting === undefined) return undefined;
  const parts = splitText(options.text, fitting);
  const chosen = parts[part - 1];
  if (!chosen) {
    const uri = partUri(options.uri, part);
    throw new ResourceNotFoundError(
      uri,
      `Resource not found: ${options.uri} comes in ${parts.length} parts; part ${part} does not exist. Read ${options.uri} for part 1.`,
    );
  }
  const totalLines = options.text.split("\n").length;
  const { head, tail } = partNotice(options, {
    part,
    parts: parts.length,
    firstLine: chosen.firstLine,
    lastLine: chosen.lastLine,
    totalLines,
  });
  return {
    text: `${head}${chosen.text}${tail}`,
    part,
    parts: parts.length,
    ...(part < parts.length ? { next: partUri(options.uri, part + 1) } : {}),
  };
}

/**
 * The o200k tokens of a read result when it is above `maxTokens`, else undefined: counted as
 * core counts every answer, never fewer than there are.
 */
export function readTokensAbove(result: unknown, maxTokens: number): Promise<number | undefined> {
  return tokensAboveBudget(JSON.stringify(result), maxTokens);
}
