/**
 * Valid-looking arguments from a tool's own input schema, as a fast-check arbitrary: required
 * properties always, optional ones half the time, strings within their lengths (or matching
 * their pattern), numbers within their bounds, small arrays. Fields named in the server's hints
 * (object ids, file names of the fixture) take a known value most of the time, so valid calls
 * reach past "not found" into the tool's real work.
 */
import fc from "fast-check";
import { resolveRef, type JsonSchema } from "./json-schema.js";

/** Known values per property name (ids and paths in the fixture, sensible queries). */
export type FieldHints = Readonly<Record<string, readonly unknown[]>>;

const MAX_DEPTH = 6;

interface Walk {
  root: JsonSchema;
  hints: FieldHints;
  depth: number;
}

function hinted(
  walk: Walk,
  key: string | undefined,
  generic: fc.Arbitrary<unknown>,
  accept: (value: unknown) => boolean,
): fc.Arbitrary<unknown> {
  const known = key === undefined ? [] : (walk.hints[key] ?? []).filter(accept);
  if (known.length === 0) return generic;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generic });
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, 24));
  if (schema.pattern !== undefined) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
    } catch {
      // A pattern JavaScript cannot compile: fall back to plain text.
    }
  }
  const text = fc.string({ minLength, maxLength });
  if (minLength > 16) return text;
  const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/).filter((s) => s.length >= minLength && s.length <= maxLength);
  return fc.oneof(word, text);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -100);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : low + 1_000);
  if (!integer) return fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
  const min = Math.ceil(low);
  const max = Math.max(min, Math.floor(high));
  // Mostly small values (limits, depths), sometimes anywhere in the range.
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 20) }) },
    { weight: 1, arbitrary: fc.integer({ min, max: Math.min(max, Number.MAX_SAFE_INTEGER) }) },
  );
}

function objectArbitrary(walk: Walk, schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (keys.length === 0) {
    if (schema.additionalProperties === false) return fc.constant({});
    const values =
      typeof schema.additionalProperties === "object"
        ? arbitraryFor(walk, schema.additionalProperties, undefined)
        : fc.jsonValue({ maxDepth: 2 });
    return fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,9}$/), values, { maxKeys: 4 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys) model[key] = arbitraryFor(walk, properties[key] ?? {}, key);
  const required = (schema.required ?? []).filter((key) => key in model);
  return fc.record(model, { requiredKeys: required });
}

function arbitraryOfType(walk: Walk, schema: JsonSchema, type: string, key: string | undefined): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return hinted(walk, key, stringArbitrary(schema), (v) => typeof v === "string");
    case "integer":
      return hinted(walk, key, numberArbitrary(schema, true), (v) => Number.isInteger(v));
    case "number":
      return hinted(walk, key, numberArbitrary(schema, false), (v) => typeof v === "number");
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      const items = schema.items ?? {};
      // Hints for an array field name the array's items (files: ["notes.md", …]).
      const item = hinted(
        walk,
        key,
        arbitraryFor(walk, items, undefined),
        (v) => typeof v === "string" && resolveRef(walk.root, items).type === "string",
      );
      return fc.array(item, { minLength, maxLength });
    }
    case "object":
      return objectArbitrary(walk, schema);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function arbitraryFor(parent: Walk, raw: JsonSchema, key: string | undefined): fc.Arbitrary<unknown> {
  const walk = { ...parent, depth: parent.depth + 1 };
  if (walk.depth > MAX_DEPTH) return fc.constant(null);
  const schema = resolveRef(walk.root, raw);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches && branches.length > 0) return fc.oneof(...branches.map((branch) => arbitraryFor(walk, branch, key)));
  if (schema.allOf && schema.allOf.length > 0) return arbitraryFor(walk, Object.assign({}, ...schema.allOf) as JsonSchema, key);
  const types = Array.isArray(schema.type) ? schema.type : schema.type !== undefined ? [schema.type] : schema.properties ? ["object"] : [];
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => arbitraryOfType(walk, schema, type, key)));
}

/** Valid-looking arguments for a tool's input schema. */
export function validArguments(inputSchema: JsonSchema, hints: FieldHints = {}): fc.Arbitrary<unknown> {
  return arbitraryFor({ root: inputSchema, hints, depth: 0 }, inputSchema, undefined);
}
