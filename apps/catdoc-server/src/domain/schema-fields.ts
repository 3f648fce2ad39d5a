/** zod field builders shared by the schemas of category.yaml and config.yaml. */
import { z } from "zod";

/** How a wrong YAML value reads in an error message. */
export function describeValue(value: unknown): string {
  if (value === null) return "an empty value";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `a ${typeof value}`;
}

/** A required text field; a YAML number is taken as its decimal text. */
export const text = z.preprocess(
  (value) => (typeof value === "number" && Number.isFinite(value) ? String(value) : value),
  z
    .string({
      error: (issue) => (issue.input === undefined ? "required field is missing" : `expected text, got ${describeValue(issue.input)}`),
    })
    .min(1, "must not be empty"),
);

/** An optional field that may also be written as an empty YAML value (`key:`). */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === null ? undefined : value), schema.optional());
}

/** A list that may be absent or written as an empty YAML value. */
export function list<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => value ?? [], z.array(item));
}

/** `{ key: id }` mapping that may be absent or empty. */
export const idMapping = z.preprocess((value) => value ?? {}, z.record(z.string(), text));
