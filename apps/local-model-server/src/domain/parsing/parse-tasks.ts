/**
 * The parsing the parser worker does (parser-worker.ts), as plain functions from text to plain
 * data: the data must cross a thread boundary, so no parser objects come back. They run in the
 * worker in the server, and directly in tests. The check of data against a caller's JSON schema
 * runs there too: a schema's `pattern` is a regex the caller wrote, and `^(a+)+$` against 34
 * letters kept the main thread busy past every deadline. Each parser (YAML, the Markdown outline,
 * Handlebars, Ajv) loads with its first task, so a fresh thread starts with none of them.
 */
import type { ExtractFormat, ExtractItem } from "../extract/extract-file.js";
import type { OutlineItem } from "../markdown/outline.js";
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
      return (await import("./frontmatter-item.js")).frontmatterItem(request.text, request.fields, request.format);
    case "outline":
      return (await import("../markdown/outline.js")).markdownOutline(request.text);
    case "schema":
      return schemaCheck(request.schema, request.items);
    case "render":
      // Filling a template is work its text decides: nested {{#each}} over a list multiplies
      // (five levels over 1,000 items), so it is bounded like parsing.
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
