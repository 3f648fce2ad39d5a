/**
 * The part of JSON Schema that tools/list input schemas use (zod's `toJSONSchema` output: objects,
 * strings with lengths, patterns and enums, bounded numbers, arrays, anyOf, records, `{}` for
 * any value), and how to walk it.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
}

export const JSON_TYPES = ["string", "number", "integer", "boolean", "null", "array", "object"] as const;

/** Follows a local `$ref` (`#/$defs/X`, `#/definitions/X`); anything else is "any value". */
export function resolveRef(root: JsonSchema, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined && hops < 16; hops += 1) {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref);
    const target = match ? root[match[1] as "$defs" | "definitions"]?.[match[2] ?? ""] : undefined;
    current = target ?? {};
  }
  return current;
}

/** The JSON types a schema admits (empty: any). */
export function typesOf(root: JsonSchema, schema: JsonSchema): string[] {
  const resolved = resolveRef(root, schema);
  if (resolved.enum !== undefined || resolved.const !== undefined) {
    const values = resolved.enum ?? [resolved.const];
    return [...new Set(values.map((value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)))];
  }
  if (Array.isArray(resolved.type)) return resolved.type;
  if (resolved.type !== undefined) return [resolved.type];
  const branches = resolved.anyOf ?? resolved.oneOf;
  if (branches) return [...new Set(branches.flatMap((branch) => typesOf(root, branch)))];
  if (resolved.properties) return ["object"];
  return [];
}

/** The first branch of a schema that admits objects (for navigating anyOf). */
function objectBranch(root: JsonSchema, schema: JsonSchema): JsonSchema {
  const resolved = resolveRef(root, schema);
  if (resolved.properties || resolved.additionalProperties !== undefined) return resolved;
  for (const branch of resolved.anyOf ?? resolved.oneOf ?? []) {
    const candidate = resolveRef(root, branch);
    if (candidate.properties || typesOf(root, candidate).includes("object")) return candidate;
  }
  return resolved;
}

/** The schema of one child: an object's property, or an array's items. */
export function childSchema(root: JsonSchema, parent: JsonSchema, key: string | number): JsonSchema {
  const resolved = resolveRef(root, parent);
  if (typeof key === "number") {
    const items = resolved.items ?? (resolved.anyOf ?? []).map((b) => resolveRef(root, b)).find((b) => b.items)?.items;
    return items ?? {};
  }
  const object = objectBranch(root, resolved);
  const property = object.properties?.[key];
  if (property) return property;
  return typeof object.additionalProperties === "object" ? object.additionalProperties : {};
}

/** Required keys of the object branch of a schema. */
export function requiredKeys(root: JsonSchema, schema: JsonSchema): string[] {
  return objectBranch(root, schema).required ?? [];
}

/** Declared properties of the object branch of a schema. */
export function propertyNames(root: JsonSchema, schema: JsonSchema): string[] {
  return Object.keys(objectBranch(root, schema).properties ?? {});
}
