/**
 * References in a Markdown document: `@object-id`, `[[wiki link]]` and relative links to other
 * Markdown files (`[text](./other.md)`). Code (fenced blocks and inline spans) and HTML comments
 * are ignored, as are e-mail addresses, images, external links and links to non-Markdown files.
 */
import { relationsAt } from "./relations.js";
import type { Relation } from "./relations.js";
import type { ReferenceKind } from "./types.js";

export interface DocumentReference {
  kind: ReferenceKind;
  /** The id, the wiki text or the link path (anchor and query removed, percent-decoding applied). */
  value: string;
  /** The verb written before it (`covers @req-login`), when there is one. */
  relation?: Relation;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\2[`~]*[ \t]*(?=\n|$)|$)/gm;
const INLINE_CODE = /(`+)[\s\S]*?\1/g;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const AT_REF = /(?<![\p{L}\p{N}_@.\-/\\])@([\p{L}\p{N}][\p{L}\p{N}_.-]*)/gu;
const WIKI = /\[\[([^[\]|#\n]+)(?:#[^[\]|\n]*)?(?:\|[^[\]\n]*)?\]\]/g;
const LINK = /(?<!!)\[[^\]\n]*\]\(\s*(?:<([^<>\n]+)>|([^()\s<>]+))(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const MARKDOWN_FILE = /\.(md|markdown)$/i;

const blank = (match: string) => match.replace(/[^\n]/g, " ");

/** The text with code blocks and HTML comments blanked out (lines stay where they were). */
function withoutBlocks(markdown: string): string {
  return markdown.replace(FENCE, blank).replace(HTML_COMMENT, blank);
}

/** The text with code (blocks and inline spans) and comments blanked out. */
export function proseOf(markdown: string): string {
  return withoutBlocks(markdown).replace(INLINE_CODE, blank);
}

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Every reference of the document, in order of appearance per kind (@ref, wikilink, link), without
 * repeats; each with the relation a verb before it names (relations.ts), the first one found
 * among its repeats.
 */
export function extractReferences(markdown: string): DocumentReference[] {
  const prose = proseOf(markdown);
  const all: Array<{ kind: ReferenceKind; value: string; start: number; end: number }> = [];
  const add = (kind: ReferenceKind, value: string, match: RegExpExecArray) => {
    if (value !== "") all.push({ kind, value, start: match.index, end: match.index + match[0].length });
  };
  for (const match of prose.matchAll(AT_REF)) add("@ref", (match[1] ?? "").replace(/[.-]+$/, ""), match);
  for (const match of prose.matchAll(WIKI)) add("wikilink", (match[1] ?? "").trim(), match);
  for (const match of prose.matchAll(LINK)) {
    const target = (match[1] ?? match[2] ?? "").trim();
    if (SCHEME.test(target) || target.startsWith("#") || target.startsWith("//")) continue;
    const path = decode(target.replace(/[#?].*$/, ""));
    if (MARKDOWN_FILE.test(path)) add("link", path, match);
  }
  const byPosition = [...all].sort((a, b) => a.start - b.start);
  const atPosition = relationsAt(prose, byPosition);
  const relations = new Map(byPosition.map((reference, i) => [reference, atPosition[i]]));
  const found = new Map<string, DocumentReference>();
  for (const reference of all) {
    const key = `${reference.kind}\u0000${reference.value}`;
    const relation = relations.get(reference);
    const earlier = found.get(key);
    if (earlier === undefined) found.set(key, { kind: reference.kind, value: reference.value, ...(relation ? { relation } : {}) });
    else if (earlier.relation === undefined && relation !== undefined) earlier.relation = relation;
  }
  return [...found.values()];
}

/** The text of the first ATX heading (`# Title`) outside code, if any. */
export function firstHeading(markdown: string): string | undefined {
  const match = /^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/m.exec(withoutBlocks(markdown));
  const text = match?.[1]?.trim();
  return text === undefined || text === "" ? undefined : text;
}
