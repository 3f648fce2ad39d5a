import type { JsonSchema } from "./types.js";

export interface GrammarBounds {
  /** Longest string the grammar lets the model write where the schema sets no maxLength. */
  maxStringLength: number;
  /** Most array items where the schema sets no maxItems. */
  maxArrayItems: number;
}

export const DEFAULT_GRAMMAR_BOUNDS: GrammarBounds = { maxStringLength: 200, maxArrayItems: 20 };

const KEEP = new Set([
  "type",
  "description",
  "const",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "format",
  "$ref",
  "$defs",
]);
const FORMATS = new Set(["date-time", "time", "date"]);

/**
 * The schema the llama.cpp grammar is built from: the caller's schema reduced to what
 * node-llama-cpp's JSON grammar understands (anyOf becomes oneOf; keywords such as `minimum` or
 * `pattern` are left to the Ajv check afterwards), with bounds on strings and arrays that set
 * none, so a small model cannot run out of tokens inside an endless string. The result is
 * still checked against the caller's full schema.
 */
export function toGrammarSchema(schema: unknown, bounds: GrammarBounds = DEFAULT_GRAMMAR_BOUNDS): JsonSchema {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return {};
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === "anyOf" || key === "oneOf") out.oneOf = (value as unknown[]).map((s) => toGrammarSchema(s, bounds));
    else if (key === "format" && !FORMATS.has(String(value))) continue;
    else if (!KEEP.has(key)) continue;
    else if (key === "properties" || key === "$defs") {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, s]) => [k, toGrammarSchema(s, bounds)]));
    } else if (key === "items" || (key === "additionalProperties" && typeof value === "object")) {
      out[key] = toGrammarSchema(value, bounds);
    } else if (key === "prefixItems") out[key] = (value as unknown[]).map((s) => toGrammarSchema(s, bounds));
    else out[key] = value;
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (
    types.includes("string") &&
    out.enum === undefined &&
    out.const === undefined &&
    out.format === undefined &&
    out.maxLength === undefined
  ) {
    out.maxLength = Math.max(bounds.maxStringLength, Number(out.minLength ?? 0));
  }
  if (types.includes("array") && out.maxItems === undefined) {
    out.maxItems = Math.max(bounds.maxArrayItems, Number(out.minItems ?? 0));
  }
  return out;
}
