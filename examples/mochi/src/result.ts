import type { ParcelError } from "./errors.js";

/** A failure returned as a value: callers must look at `ok` before they use the value. */
export type Result<T, E = ParcelError> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

export function err<E>(error: E): Result<never, E> {
  return { ok: false, error };
}

/** The value of a result, or the fallback when it failed. */
export function unwrapOr<T, E>(result: Result<T, E>, fallback: T): T {
  return result.ok ? result.value : fallback;
}
