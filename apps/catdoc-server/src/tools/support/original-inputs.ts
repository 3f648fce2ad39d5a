/**
 * Inputs of the original CatDoc's MCP tools that have another name or meaning here. Core refuses
 * a key a tool does not declare (its input schema is strict) before the handler runs, and an
 * alias declared in the schema would be listed in tools/list for every client; so such a key is
 * refused with INVALID_INPUT whose message names what to send instead. The message comes from
 * the tool's input object's own error map, which core's `extend(…).strict()` keeps and which
 * tools/list never shows.
 */
import { z } from "zod";

/** What each original input is here: `{ key: "use … instead" }`. */
export type OriginalInputs = Readonly<Record<string, string>>;

/** The catdoc_trace inputs of the original. */
export const ORIGINAL_TRACE_INPUTS: OriginalInputs = {
  crossCategory:
    "the original CatDoc's crossCategory (targetId is a category) is targetCategoryId here: send targetCategoryId: <category> with targetId: <object in it>; without targetCategoryId a trace crosses categories by itself when targetId is in another category",
};

/** The params of `z.object(shape, params)`: unknown keys the original knew are refused with their replacement. */
export function refusingOriginalInputs(original: OriginalInputs): { error: (issue: z.core.$ZodRawIssue) => string | undefined } {
  return {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      const keys = (issue as { keys?: unknown }).keys;
      if (!Array.isArray(keys) || !keys.some((key) => typeof key === "string" && Object.hasOwn(original, key))) return undefined;
      return keys
        .map((key: unknown) =>
          typeof key === "string" && Object.hasOwn(original, key) ? `'${key}': ${original[key]}` : `Unrecognized key: "${String(key)}"`,
        )
        .join("; ");
    },
  };
}

/** `z.object(shape)` whose unknown keys the original knew are refused with their replacement. */
export function objectNamingOriginalInputs<S extends z.core.$ZodLooseShape>(original: OriginalInputs, shape: S) {
  return z.object(shape, refusingOriginalInputs(original));
}
