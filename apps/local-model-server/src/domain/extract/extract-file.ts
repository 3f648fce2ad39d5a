/**
 * The deterministic `local_extract` engines, one file at a time. Each returns the item the seed
 * describes — `found`, `data` (an object for format "json", a list of strings for "list") — plus
 * `lineNumbers` (one per data entry, in data order; null for a requested field that is absent)
 * and `details` for the full level.
 */
import type { OutlineItem } from "../markdown/outline.js";
import type { ParserPool } from "../parsing/parser-pool.js";
import type { TextFile } from "../paths/path-guard.js";
import type { PatternSpec, RegexRunner } from "../regex/bounded-regex.js";
import { collectExports, exportLabel } from "../ts/exports.js";
import { collectImports } from "../ts/imports.js";
import { isScriptPath, parseSource } from "../ts/source-file.js";
import { symbolOutline } from "../ts/symbol-outline.js";
import { analyzerFor } from "../analyze/code-languages.js";
import { countLines } from "../text/lines.js";

export type ExtractFormat = "json" | "list";

export interface ExtractItem {
  found: boolean;
  data: unknown;
  lineNumbers?: (number | null)[];
  details?: Record<string, unknown>;
  error?: string;
}

export function isMarkdownPath(path: string): boolean {
  return /\.(md|markdown|mdx)$/i.test(path);
}

/** Whether `structure` has a deterministic outline for this file (Markdown, or code in a supported language). */
export function hasOutline(path: string): boolean {
  return isMarkdownPath(path) || analyzerFor(path) !== undefined;
}

/** Frontmatter fields, parsed in a parser thread (bounded in size, nesting, memory and time). */
export function extractFrontmatter(
  file: TextFile,
  fields: readonly string[] | undefined,
  format: ExtractFormat,
  parsers: ParserPool,
  signal: AbortSignal,
): Promise<ExtractItem> {
  return parsers.run({ kind: "frontmatter", text: file.text, fields, format }, { signal, what: `the frontmatter of ${file.given}` });
}

export async function extractPatterns(
  file: TextFile,
  patterns: readonly string[],
  specs: readonly PatternSpec[],
  format: ExtractFormat,
  regex: RegexRunner,
  signal: AbortSignal,
): Promise<ExtractItem> {
  const matches = await regex.search(file.text, specs, { signal, file: file.given, labels: patterns });
  const ordered = [...matches].sort((a, b) => a.pattern - b.pattern || a.line - b.line || a.column - b.column);
  const data =
    format === "list"
      ? ordered.map((m) => m.match)
      : Object.fromEntries(patterns.map((p, i) => [p, ordered.filter((m) => m.pattern === i).map((m) => m.match)]));
  return {
    found: ordered.length > 0,
    data,
    lineNumbers: ordered.map((m) => m.line),
    details: {
      matches: ordered.map((m) => ({ pattern: patterns[m.pattern] ?? "", line: m.line, column: m.column, match: m.match, text: m.text })),
    },
  };
}

export async function extractExports(file: TextFile): Promise<ExtractItem> {
  const exports = collectExports(await parseSource(file.absolute, file.text));
  return {
    found: exports.length > 0,
    data: exports.map(exportLabel),
    lineNumbers: exports.map((e) => e.line),
    details: {
      exports: exports.map((e) => ({
        name: e.name,
        kind: e.kind,
        line: e.line,
        type_only: e.typeOnly,
        ...(e.from ? { from: e.from } : {}),
        ...(e.local ? { local: e.local } : {}),
      })),
    },
  };
}

export async function extractImports(file: TextFile, format: ExtractFormat): Promise<ExtractItem> {
  const imports = collectImports(await parseSource(file.absolute, file.text));
  const modules: string[] = [];
  const items = new Map<string, string[]>();
  const lines = new Map<string, number>();
  for (const i of imports) {
    if (!items.has(i.from)) {
      modules.push(i.from);
      items.set(i.from, []);
      lines.set(i.from, i.line);
    }
    items.get(i.from)?.push(...i.items.filter((item) => !items.get(i.from)?.includes(item)));
  }
  return {
    found: imports.length > 0,
    data: format === "list" ? modules : Object.fromEntries(modules.map((m) => [m, items.get(m) ?? []])),
    lineNumbers: modules.map((m) => lines.get(m) ?? null),
    details: { imports: imports.map((i) => ({ from: i.from, items: i.items, line: i.line, kind: i.kind, type_only: i.typeOnly })) },
  };
}

export async function outlineOf(file: TextFile, parsers: ParserPool, signal: AbortSignal): Promise<OutlineItem[]> {
  if (isMarkdownPath(file.given) || !isScriptPath(file.given))
    return parsers.run({ kind: "outline", text: file.text }, { signal, what: `the outline of ${file.given}` });
  return symbolOutline(await parseSource(file.absolute, file.text));
}

function listLine(item: OutlineItem): string {
  return item.kind === "heading" ? `${"#".repeat(item.level)} ${item.name}` : `${"  ".repeat(item.level - 1)}${item.kind} ${item.name}`;
}

export async function extractStructure(
  file: TextFile,
  format: ExtractFormat,
  parsers: ParserPool,
  signal: AbortSignal,
): Promise<ExtractItem> {
  const outline = await outlineOf(file, parsers, signal);
  return {
    found: outline.length > 0,
    data: format === "list" ? outline.map(listLine) : { outline: outline.map(({ level, kind, name }) => ({ level, kind, name })) },
    lineNumbers: outline.map((o) => o.line),
    details: {
      sections: outline.map((o) => ({ name: o.name, kind: o.kind, level: o.level, line: o.line, end_line: o.endLine })),
      lines: countLines(file.text),
    },
  };
}
