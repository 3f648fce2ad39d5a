/**
 * References in a Markdown document: `@object-id`, `[[wiki link]]` and relative links to other
 * Markdown files (`[text](./other.md)`). Code (fenced blocks and inline spans) and HTML comments
 * are ignored, as are e-mail addresses, images, external links and links to non-Markdown files.
 */
import type { ReferenceKind } from "./types.js";

export interface DocumentReference {
  kind: ReferenceKind;
  /** The id, the wiki text or the link path (anchor and query removed, percent-decoding applied). */
  value: string;
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

/** Every reference of the document, in order of appearance per kind (@ref, wikilink, link), without repeats. */
export function extractReferences(markdown: string): DocumentReference[] {
  const prose = proseOf(markdown);
  const found: DocumentReference[] = [];
  const seen = new Set<string>();
  const add = (kind: ReferenceKind, value: string) => {
    const key = `${kind}\u0000${value}`;
    if (value === "" || seen.has(key)) return;
    seen.add(key);
    found.push({ kind, value });
  };
  for (const match of prose.matchAll(AT_REF)) add("@ref", (match[1] ?? "").replace(/[.-]+$/, ""));
  for (const match of prose.matchAll(WIKI)) add("wikilink", (match[1] ?? "").trim());
  for (const match of prose.matchAll(LINK)) {
    const target = (match[1] ?? match[2] ?? "").trim();
    if (SCHEME.test(target) || target.startsWith("#") || target.startsWith("//")) continue;
    const path = decode(target.replace(/[#?].*$/, ""));
    if (MARKDOWN_FILE.test(path)) add("link", path);
  }
  return found;
}

/** The text of the first ATX heading (`# Title`) outside code, if any. */
export function firstHeading(markdown: string): string | undefined {
  const match = /^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/m.exec(withoutBlocks(markdown));
  const text = match?.[1]?.trim();
  return text === undefined || text === "" ? undefined : text;
}
