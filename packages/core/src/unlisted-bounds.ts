import { z } from "zod";

/**
 * Input bounds that guard a server without costing every tool list: `value.length` (or the
 * number) is checked with the issue zod's own `.min()`/`.max()` raise — the same code and message,
 * so INVALID_INPUT names the limit — but nothing is written into the JSON Schema of tools/list,
 * which only zod's built-in checks reach. A model never comes near these limits; it need not read
 * them.
 */
function within(min: number, max: number, origin: "string" | "array" | "number") {
  return (value: string | unknown[] | number, ctx: z.RefinementCtx) => {
    const size = typeof value === "number" ? value : value.length;
    if (size < min) ctx.addIssue({ code: "too_small", origin, minimum: min, inclusive: true, input: value });
    if (size > max) ctx.addIssue({ code: "too_big", origin, maximum: max, inclusive: true, input: value });
  };
}

/** A string of `min` to `max` characters, its bounds unlisted (see within). */
export const boundedString = (max: number, min = 1) => z.string().superRefine(within(min, max, "string"));

/** An array of `min` to `max` items, its bounds unlisted (see within). */
export const boundedArray = <T extends z.ZodType>(item: T, max: number, min = 0) => z.array(item).superRefine(within(min, max, "array"));

/** An integer from `min` to `max`, its bounds unlisted (see within). */
export const boundedInt = (min: number, max: number) =>
  z
    .number()
    .int()
    .superRefine(within(min, max, "number"));
