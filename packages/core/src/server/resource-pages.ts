/**
 * Cursor pagination of resources/list and resources/templates/list, as the MCP spec has it: a
 * result carries `nextCursor` while more follows, and the client sends it back as `cursor`.
 *
 * A page holds at most `maxItems` entries and at most `maxTokens` (chars/4 of its JSON), so no page
 * can pass the response budget whatever the server lists (by construction, as for tool results).
 * Pages are a function of the whole list: the same list gives the same pages and the same cursors
 * (L-idempotent-resource), on every server process. A cursor names the list's content hash and
 * the offset of its page, wrapped in base64url; clients treat it as opaque. A cursor that is not
 * one this list gives — malformed, tampered with, or from a list that has changed since — is the
 * JSON-RPC error -32602 (Invalid params), as the spec asks.
 */
import { ProtocolError, ProtocolErrorCode as RpcErrorCode } from "@modelcontextprotocol/server";
import { contentHash, stableStringify } from "../resource-definition.js";
import { CHARS_PER_TOKEN } from "../response-budget.js";

export interface PageLimits {
  /** Most entries on one page. */
  maxItems: number;
  /** Most tokens (chars/4 of the JSON) one page may have. */
  maxTokens: number;
}

/** Most entries on one page by default. */
export const DEFAULT_PAGE_ITEMS = 200;
/** Share of the response budget one page may take by default: 10,000 of 25,000 tokens. */
export const PAGE_BUDGET_SHARE = 0.4;

/** Room kept on a page for what surrounds the entries: `{"resources":[…],"nextCursor":…,"_meta":…}`. */
const ENVELOPE_CHARS = 400;
/** An entry too big for a page alone gets its description and title cut to this many characters. */
const MAX_FIELD_CHARS = 2_000;

export interface Page<T> {
  items: T[];
  nextCursor?: string;
  /** Content hash of the whole list (all pages). */
  version: string;
  /** Entries left out because even cut down they were bigger than a page. */
  dropped: number;
}

/** Cuts `text` to at most `max` UTF-16 units, never inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** An entry as it fits on a page: as it is, with long description and title cut, or not at all. */
function fitEntry<T extends object>(entry: T, budgetChars: number): T | undefined {
  const size = (value: object) => JSON.stringify(value).length + 1;
  if (size(entry) <= budgetChars) return entry;
  const cut = { ...entry } as Record<string, unknown>;
  for (const key of ["description", "title"]) {
    const value = cut[key];
    if (typeof value === "string" && value.length > MAX_FIELD_CHARS) cut[key] = `${cutText(value, MAX_FIELD_CHARS)}…`;
  }
  return size(cut) <= budgetChars ? (cut as T) : undefined;
}

function encodeCursor(version: string, offset: number): string {
  return Buffer.from(`${version.replace(/^sha256:/, "")}.${offset}`, "utf8").toString("base64url");
}

function invalidCursor(what: string, reason: string): ProtocolError {
  return new ProtocolError(RpcErrorCode.InvalidParams, `Invalid cursor for ${what}: ${reason}`, { reason });
}

/** The offset a cursor names, checked against this list; -32602 for anything else. */
function decodeCursor(cursor: string, version: string, starts: readonly number[], what: string): number {
  const raw = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^([0-9a-f]{16})\.([1-9]\d{0,9})$/.exec(raw);
  // Node's base64url decoder skips stray characters: only the canonical spelling is ours.
  if (!match || Buffer.from(raw, "utf8").toString("base64url") !== cursor) {
    throw invalidCursor(what, "it is not a cursor this server gave. Call it again without a cursor to start from the first page.");
  }
  if (`sha256:${match[1]}` !== version) {
    throw invalidCursor(
      what,
      "the list has changed since this cursor was given. Call it again without a cursor to start from the first page.",
    );
  }
  const offset = Number(match[2]);
  if (!starts.includes(offset)) {
    throw invalidCursor(what, "it does not point at a page of this list. Call it again without a cursor to start from the first page.");
  }
  return offset;
}

/**
 * The page of `all` that `cursor` points at (the first page without one). `what` names the method
 * in error messages.
 */
export function paginate<T extends object>(all: readonly T[], cursor: string | undefined, limits: PageLimits, what: string): Page<T> {
  const budgetChars = Math.max(1, limits.maxTokens * CHARS_PER_TOKEN - ENVELOPE_CHARS);
  const maxItems = Math.max(1, Math.floor(limits.maxItems));
  const fitted: T[] = [];
  for (const entry of all) {
    const fit = fitEntry(entry, budgetChars);
    if (fit !== undefined) fitted.push(fit);
  }
  const version = contentHash(stableStringify(fitted, 0));
  // Page starts, greedily from the first entry: each page takes entries while both limits hold.
  const starts = [0];
  let used = 0;
  let count = 0;
  fitted.forEach((entry, index) => {
    const size = JSON.stringify(entry).length + 1;
    if (count > 0 && (count >= maxItems || used + size > budgetChars)) {
      starts.push(index);
      used = 0;
      count = 0;
    }
    used += size;
    count += 1;
  });
  const offset = cursor === undefined ? 0 : decodeCursor(cursor, version, starts, what);
  const next = starts[starts.indexOf(offset) + 1];
  return {
    items: fitted.slice(offset, next ?? fitted.length),
    ...(next !== undefined ? { nextCursor: encodeCursor(version, next) } : {}),
    version,
    dropped: all.length - fitted.length,
  };
}
