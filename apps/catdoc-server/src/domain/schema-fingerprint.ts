/**
 * A fingerprint of zod schemas: the sha256 of their definitions walked to the leaves — every
 * type, shape key, check and its parameters, and the source text of every function in them
 * (preprocessors, transforms, refinements). The parsed-YAML cache (./parsed-cache.ts) keeps
 * models as the schemas made them, under this fingerprint, so a CatDoc whose schemas differ in
 * any of these never takes an entry made by another (it parses and checks the file again).
 */
import { createHash } from "node:crypto";
import type { z } from "zod";

function describe(value: unknown, seen: Set<object>): unknown {
  if (typeof value === "function") return `fn:${String(value)}`;
  if (typeof value === "bigint") return `bigint:${value}`;
  if (typeof value === "symbol") return `symbol:${String(value.description)}`;
  if (value === null || typeof value !== "object") return value ?? null;
  // A schema used in several places (a shared field) is described where the walk meets it first.
  if (seen.has(value)) return "[seen]";
  seen.add(value);
  if ("_zod" in value) return { schema: describe((value as { _zod: { def: unknown } })._zod.def, seen) };
  if (Array.isArray(value)) return value.map((item) => describe(item, seen));
  if (value instanceof RegExp) return `regexp:${String(value)}`;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, describe(record[key], seen)]),
  );
}

/** sha256 (hex) of the schemas' definitions, in order; `tag` names what else the output depends on (zod's version). */
export function schemaFingerprint(schemas: readonly z.ZodType[], tag: string): string {
  const seen = new Set<object>();
  return createHash("sha256")
    .update(JSON.stringify({ tag, schemas: schemas.map((schema) => describe(schema, seen)) }))
    .digest("hex");
}
