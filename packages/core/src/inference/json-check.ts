import { Ajv, type ValidateFunction } from "ajv";
import safeRegex from "safe-regex2";
import type { JsonSchema } from "./types.js";

/**
 * The schema check every JSON result passes, whichever backend produced it. llama.cpp's JSON
 * grammar lets `number`/`integer` fields come out as exponents such as `60E85185`, which parse to
 * Infinity: every number in the value must be a plain finite number (Ajv `strictNumbers`, plus a
 * walk for numbers the schema does not type).
 */
export type JsonCheck = { ok: true; value: unknown } | { ok: false; error: string };

// Built on the first check, not at import (an Ajv instance costs start-up time).
let ajv: Ajv | undefined;
/** Compiled schemas, the oldest dropped past MAX_COMPILED: callers may send a new schema each call. */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 256;

function validatorFor(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = (ajv ??= new Ajv({ strict: false, allErrors: true, strictNumbers: true })).compile(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * The first regular expression of the schema (a `pattern`, a key of `patternProperties`) that
 * could backtrack catastrophically — `(a+)+$` runs for hours on a short string and would hold the
 * event loop while Ajv checks an answer — as safe-regex2 judges it (star height above 1, or too
 * many repetitions).
 */
function unsafePattern(schema: unknown, depth = 0): string | undefined {
  if (depth > 64 || schema === null || typeof schema !== "object") return undefined;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = unsafePattern(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "pattern" && typeof value === "string" && !safeRegex(value)) return value;
    if (key === "patternProperties" && value !== null && typeof value === "object") {
      const unsafe = Object.keys(value).find((p) => !safeRegex(p));
      if (unsafe !== undefined) return unsafe;
    }
    const found = unsafePattern(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function firstNonFinite(value: unknown, path = "$"): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstNonFinite(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = firstNonFinite(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** Parses `text` as JSON and checks it against `schema`; says what is wrong when it is not. */
export function checkJson(text: string, schema: JsonSchema): JsonCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${(error as Error).message})` };
  }
  const nonFinite = firstNonFinite(value);
  if (nonFinite) return { ok: false, error: `${nonFinite} is not a finite number; write plain decimal numbers` };
  const validate = validatorFor(schema);
  if (!validate(value)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "$"} ${e.message ?? "is invalid"}`);
    return { ok: false, error: errors.join("; ") };
  }
  return { ok: true, value };
}

/** Checks that a schema compiles and its patterns cannot backtrack without end (a caller's schema may be wrong or hostile). */
export function schemaProblem(schema: JsonSchema): string | undefined {
  const unsafe = unsafePattern(schema);
  if (unsafe !== undefined) {
    return `the pattern ${JSON.stringify(unsafe.slice(0, 80))} could take exponential time to match (nested repetition); write it without a repeated group that itself repeats`;
  }
  try {
    validatorFor(schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
