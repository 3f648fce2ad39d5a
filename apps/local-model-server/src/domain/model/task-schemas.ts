/**
 * JSON schemas the model must fill for each task. They give model results the same shape as the
 * deterministic engines' (the output schemas of the tools admit both), except where the caller
 * passes its own `schema` for the data of `local_extract`.
 */
import type { JsonSchema } from "@local-mcp/core/inference";

const str = { type: "string" } as const;
const strings = { type: "array", items: str } as const;
const int = { type: "integer" } as const;
const scalar = { type: ["string", "number", "boolean", "null"] } as const;
/** A frontmatter value: a scalar or a list of scalars. */
const VALUE: JsonSchema = { oneOf: [scalar, { type: "array", items: scalar }] };

function object(properties: Record<string, unknown>): JsonSchema {
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

export type ExtractTask = "pattern_match" | "frontmatter" | "exports" | "imports" | "structure";

/** The schema of one file's `data` for `local_extract` (the caller's `schema` replaces it). */
export function extractDataSchema(
  task: ExtractTask,
  format: "json" | "list",
  fields: readonly string[] | undefined,
  patterns: readonly string[] | undefined,
): JsonSchema {
  if (format === "list") return strings;
  switch (task) {
    case "frontmatter":
      return fields && fields.length > 0
        ? object(Object.fromEntries(fields.map((f) => [f, VALUE])))
        : { type: "object", additionalProperties: VALUE };
    case "pattern_match":
      return object(Object.fromEntries((patterns ?? []).map((p) => [p, strings])));
    case "exports":
      return strings;
    case "imports":
      return { type: "object", additionalProperties: strings };
    case "structure":
      return object({ outline: { type: "array", items: object({ level: int, kind: str, name: str }) } });
  }
}

/** One file's item: `found` plus `data`. */
export function extractItemSchema(data: JsonSchema): JsonSchema {
  return object({ found: { type: "boolean" }, data });
}

/**
 * String lengths of the short answers are bounded through the grammar (grammarBounds), not with
 * maxLength: llama.cpp's grammar and Ajv count odd Unicode differently, and a length the grammar
 * allowed must not fail the check afterwards.
 */
export const SHORT_ANSWER_BOUNDS = { maxStringLength: 300, maxArrayItems: 20 };

export const SUMMARY_SCHEMA: JsonSchema = object({ summary: str });

export const VERDICT_SCHEMA: JsonSchema = object({
  status: { enum: ["pass", "fail"] },
  evidence: str,
  reason: { type: ["string", "null"] },
});

export const GENERATED_SCHEMA: JsonSchema = object({ content: str });

export type GitTask = "status" | "diff" | "log" | "changed_files";

export function gitDataSchema(task: GitTask): JsonSchema {
  switch (task) {
    case "status":
      return object({
        staged: strings,
        modified: strings,
        untracked: strings,
        renamed: { type: "array", items: object({ from: str, to: str }) },
        deleted: strings,
      });
    case "diff":
      return object({
        files_changed: int,
        insertions: int,
        deletions: int,
        changes: { type: "array", items: object({ file: str, added: int, removed: int }) },
      });
    case "log":
      return object({ commits: { type: "array", items: object({ hash: str, message: str, date: str }) } });
    case "changed_files":
      return object({ files: strings, count: int });
  }
}

export type AnalyzeTask = "dependencies" | "exports" | "functions" | "types";

export function analyzeEntrySchema(task: AnalyzeTask): JsonSchema {
  switch (task) {
    case "exports":
      return object({ exports: strings });
    case "dependencies":
      return object({ imports: { type: "array", items: object({ from: str, items: strings }) } });
    case "functions":
      return object({ functions: { type: "array", items: object({ name: str, line: int, params: strings }) } });
    case "types":
      return object({ types: { type: "array", items: object({ name: str, kind: { enum: ["interface", "type", "enum"] }, line: int }) } });
  }
}
