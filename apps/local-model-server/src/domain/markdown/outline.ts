/**
 * The outline of a Markdown file: ATX and Setext headings outside fenced code, and the XML-style
 * blocks GSD plans use (`<objective>`, `<tasks>`, `<task type="auto">` named by its `<name>`).
 * Frontmatter is skipped. Each item knows the lines it spans.
 */
import { frontmatterBlock } from "../frontmatter/frontmatter.js";
import { countLines } from "../text/lines.js";

export { countLines } from "../text/lines.js";

export interface OutlineItem {
  /** Heading level (1-6) for headings; nesting depth (1-based) for blocks and code symbols. */
  level: number;
  kind: string;
  name: string;
  line: number;
  endLine: number;
}

/** An ATX heading; its text still carries the optional closing `#`s (atxText strips them). */
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const SETEXT_1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_2 = /^ {0,3}-+[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const OPEN_TAG = /^<([A-Za-z][\w:-]*)((?:\s[^>]*)?)>\s*$/;
const CLOSE_TAG = /^<\/([A-Za-z][\w:-]*)>\s*$/;
const NAME_ELEMENT = /^\s*<name>(.*)<\/name>\s*$/;
const NOT_PARAGRAPH = /^\s*([-*+]\s|\d+[.)]\s|>|#|<|\||$)/;

export function markdownOutline(text: string): OutlineItem[] {
  const lines = text.split(/\r?\n/);
  // Only where the frontmatter ends matters here: it is not parsed.
  const frontmatter = frontmatterBlock(text);
  const first = frontmatter.present ? frontmatter.endLine : 0;
  const items: OutlineItem[] = [];
  const headings: OutlineItem[] = [];
  const blocks: { tag: string; item: OutlineItem }[] = [];
  let fence: string | undefined;

  for (let i = first; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const number = i + 1;
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]?.[0] === fence[0] && (fenceMatch[1]?.length ?? 0) >= fence.length && line.trim() === fenceMatch[1])
        fence = undefined;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      addHeading(items, headings, (atx[1] ?? "#").length, atxText(atx[2] ?? ""), number);
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && line.trim().length > 0 && !NOT_PARAGRAPH.test(line) && (SETEXT_1.test(next) || SETEXT_2.test(next))) {
      addHeading(items, headings, SETEXT_1.test(next) ? 1 : 2, line.trim(), number);
      i++;
      continue;
    }
    const open = OPEN_TAG.exec(line);
    if (open) {
      const tag = open[1] ?? "";
      const type = /\btype="([^"]*)"/.exec(open[2] ?? "")?.[1];
      const item: OutlineItem = {
        level: blocks.length + 1,
        kind: "block",
        name: type ? `${tag} (${type})` : tag,
        line: number,
        endLine: Number.MAX_SAFE_INTEGER,
      };
      items.push(item);
      blocks.push({ tag, item });
      continue;
    }
    const close = CLOSE_TAG.exec(line);
    if (close) {
      const at = blocks.map((b) => b.tag).lastIndexOf(close[1] ?? "");
      if (at >= 0) {
        for (const open of blocks.splice(at)) open.item.endLine = number;
      }
      continue;
    }
    const named = NAME_ELEMENT.exec(line);
    const top = blocks.at(-1);
    if (named && top && !top.item.name.includes(": ")) top.item.name = `${top.item.name}: ${(named[1] ?? "").trim()}`;
  }
  return closeOutline(items, countLines(text));
}

/**
 * A heading's text without its closing sequence (`## Title ##` → `Title`), in linear time: the
 * lazy-group regex this replaces backtracked quadratically on a long line of spaces (40 KB took
 * 2.7 s, a 1 MiB line would have taken half an hour).
 */
function atxText(raw: string): string {
  const text = raw.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  if (end === 0) return "";
  if (end === text.length || (text[end - 1] !== " " && text[end - 1] !== "\t")) return text;
  return text.slice(0, end).trimEnd();
}

function addHeading(items: OutlineItem[], open: OutlineItem[], level: number, name: string, line: number): void {
  // A heading closes every open heading of the same or a deeper level.
  while (open.length > 0 && (open.at(-1)?.level ?? 0) >= level) {
    const closed = open.pop();
    if (closed) closed.endLine = line - 1;
  }
  const item: OutlineItem = { level, kind: "heading", name, line, endLine: Number.MAX_SAFE_INTEGER };
  items.push(item);
  open.push(item);
}

/** Ends the items still open at the end of the file there. */
function closeOutline(items: OutlineItem[], lineCount: number): OutlineItem[] {
  for (const item of items) if (item.endLine > lineCount) item.endLine = lineCount;
  return items;
}
