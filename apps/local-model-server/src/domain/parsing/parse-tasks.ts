/**
 * The parsing the parser worker does (parser-worker.ts), as plain functions from text to plain
 * data: the data must cross a thread boundary, so no parser objects come back. They run in the
 * worker in the server, and directly in tests.
 */
import type { ExtractFormat, ExtractItem } from "../extract/extract-file.js";
import { frontmatterField, parseFrontmatter } from "../frontmatter/frontmatter.js";
import { markdownOutline, type OutlineItem } from "../markdown/outline.js";

export type ParseRequest =
  | { kind: "frontmatter"; text: string; fields: readonly string[] | undefined; format: ExtractFormat }
  | { kind: "outline"; text: string };

export interface ParseResults {
  frontmatter: ExtractItem;
  outline: OutlineItem[];
}

export type ParseResult<R extends ParseRequest> = ParseResults[R["kind"]];

export function runParseTask<R extends ParseRequest>(request: R): ParseResult<R>;
export function runParseTask(request: ParseRequest): ParseResults[keyof ParseResults] {
  switch (request.kind) {
    case "frontmatter":
      return frontmatterItem(request.text, request.fields, request.format);
    case "outline":
      return markdownOutline(request.text);
  }
}

const flow = (value: unknown) => JSON.stringify(value ?? null);

/** local_extract's frontmatter item: the requested fields (all top-level ones by default) with their lines. */
export function frontmatterItem(text: string, fields: readonly string[] | undefined, format: ExtractFormat): ExtractItem {
  const frontmatter = parseFrontmatter(text);
  if (frontmatter.error) return { found: false, data: format === "list" ? [] : {}, lineNumbers: [], error: frontmatter.error };
  if (!frontmatter.present) return { found: false, data: format === "list" ? [] : {}, lineNumbers: [] };
  const names = fields && fields.length > 0 ? [...fields] : frontmatter.keys;
  const values = names.map((name) => ({ name, ...frontmatterField(frontmatter, name) }));
  const found = !fields || fields.length === 0 || values.some((v) => v.found);
  const data = format === "list" ? values.filter((v) => v.found).map((v) => `${v.name}: ${flow(v.value)}`) : Object.fromEntries(values.map((v) => [v.name, v.value]));
  const lineNumbers = (format === "list" ? values.filter((v) => v.found) : values).map((v) => v.line ?? null);
  return {
    found,
    data,
    lineNumbers,
    details: {
      frontmatter_lines: [frontmatter.startLine, frontmatter.endLine],
      keys: frontmatter.keys,
      missing: values.filter((v) => !v.found).map((v) => v.name),
    },
  };
}
