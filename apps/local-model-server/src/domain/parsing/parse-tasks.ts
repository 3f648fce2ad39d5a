/**
 * The parsing the parser worker does (parser-worker.ts), as plain functions from text to plain
 * data: the data must cross a thread boundary, so no parser objects come back. They run in the
 * worker in the server, and directly in tests. The check of data against a caller's JSON schema
 * runs there too: a schema's `pattern` is a regex the caller wrote, and `^(a+)+$` against 34
 * letters kept the main thread busy past every deadline.
 */
import type { ExtractFormat, ExtractItem } from "../extract/extract-file.js";
import { frontmatterField, parseFrontmatter } from "../frontmatter/frontmatter.js";
import { markdownOutline, type OutlineItem } from "../markdown/outline.js";
import type { RenderOptions } from "../templates/render-template.js";

export type ParseRequest =
  | { kind: "frontmatter"; text: string; fields: readonly string[] | undefined; format: ExtractFormat }
  | { kind: "outline"; text: string }
  | { kind: "schema"; schema: Record<string, unknown>; items: [string, unknown][] }
  | { kind: "render"; text: string; variables: Record<string, unknown>; options: RenderOptions };

/** The data checked against the caller's schema; `problem` when the schema itself does not compile. */
export interface SchemaCheck {
  valid: boolean;
  error?: string;
  problem?: string;
}

export interface ParseResults {
  frontmatter: ExtractItem;
  outline: OutlineItem[];
  schema: SchemaCheck;
  render: string;
}

export type ParseResult<R extends ParseRequest> = ParseResults[R["kind"]];

export async function runParseTask<R extends ParseRequest>(request: R): Promise<ParseResult<R>>;
export async function runParseTask(request: ParseRequest): Promise<ParseResults[keyof ParseResults]> {
  switch (request.kind) {
    case "frontmatter":
      return frontmatterItem(request.text, request.fields, request.format);
    case "outline":
      return markdownOutline(request.text);
    case "schema":
      return schemaCheck(request.schema, request.items);
    case "render":
      // Filling a template is work its text decides: nested {{#each}} over a list multiplies
      // (five levels over 1,000 items), so it is bounded like parsing.
      // Handlebars is loaded on the first template, not with every thread.
      return (await import("../templates/render-template.js")).renderTemplate(request.text, request.variables, request.options);
  }
}

/** Checks each item's data with core's check (Ajv, finite numbers, all errors); says which failed. Loaded on first use. */
export async function schemaCheck(schema: Record<string, unknown>, items: [string, unknown][]): Promise<SchemaCheck> {
  // ajv is CommonJS: a bundle's lazy chunk of it exports only `default` (module.exports, which carries `.Ajv`).
  const [{ checkJson }, { default: ajv }] = await Promise.all([import("@local-mcp/core/inference"), import("ajv")]);
  const { Ajv } = ajv;
  try {
    new Ajv({ strict: false }).compile(schema);
  } catch (error) {
    return { valid: false, problem: (error as Error).message };
  }
  const failures: string[] = [];
  for (const [name, value] of items) {
    const check = checkJson(JSON.stringify(value ?? null), schema);
    if (!check.ok) failures.push(`${name}: ${check.error}`);
  }
  return failures.length === 0 ? { valid: true } : { valid: false, error: failures.join("; ") };
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
