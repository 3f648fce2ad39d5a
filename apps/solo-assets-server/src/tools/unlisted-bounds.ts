/**
 * Input bounds that guard the server without costing every tool list (as local-model's
 * src/tools/contract.ts does): the length is checked with the issue zod's own `.min()`/`.max()`
 * raise — the same INVALID_INPUT message naming the limit — but nothing is written into the JSON
 * Schema of tools/list, which only zod's built-in checks reach.
 */
import { z } from "zod";

function within(min: number, max: number, origin: "string" | "array") {
  return (value: string | unknown[], ctx: z.RefinementCtx) => {
    if (value.length < min) ctx.addIssue({ code: "too_small", origin, minimum: min, inclusive: true, input: value });
    if (value.length > max) ctx.addIssue({ code: "too_big", origin, maximum: max, inclusive: true, input: value });
  };
}

/** A string of `min` to `max` characters, its bounds unlisted. */
export const boundedString = (max: number, min = 1) => z.string().superRefine(within(min, max, "string"));

/** An array of `min` to `max` items, its bounds unlisted. */
export const boundedArray = <T extends z.ZodType>(item: T, max: number, min = 0) => z.array(item).superRefine(within(min, max, "array"));
