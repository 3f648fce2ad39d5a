import { Ajv, type ValidateFunction } from "ajv";
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
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = (ajv ??= new Ajv({ strict: false, allErrors: true, strictNumbers: true })).compile(schema);
    compiled.set(key, validate);
  }
  return validate;
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

/** Checks that a schema compiles (a caller's schema may be wrong). */
export function schemaProblem(schema: JsonSchema): string | undefined {
  try {
    validatorFor(schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
