/** Input and output schema pieces every tool of this server shares. */
import { z } from "zod";
import { boundedArray, boundedInt, boundedString, nestingDepth } from "@local-mcp/core";

export const EngineChoiceSchema = z
  .enum(["auto", "deterministic", "model"])
  // Explained once, in the server's instructions (server.ts).
  .optional();

/** The contract's fields other than `data`, built once (zod schemas are immutable, so every tool's output shares them). */
function buildContractFields() {
  return {
    success: z.boolean().describe("false when the result should not be trusted as is: see error; data is kept for review"),
    error: z.string().nullable(),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe("1 for deterministic engines; the model's own confidence otherwise; null when its server gave none (confidence_note)"),
    confidence_note: z.string().optional(),
    tokens_used: z.number().int().min(0).describe("model tokens (prompt + generated, all attempts); 0 without the model"),
    tokens_saved: z
      .number()
      .int()
      .min(0)
      .describe(
        "estimated tokens of the input Claude did not have to read, minus this response's (chars/4); 0 when the response cost more",
      ),
    tokens_over: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("present when this response cost more tokens than reading its input would have: by how many (chars/4)"),
    engine: z.enum(["deterministic", "model"]),
    retries: z.number().int().min(0).optional().describe("model attempts after a schema-invalid output"),
    schema_valid: z.boolean().optional(),
    model: z.string().optional(),
    stats: z
      .object({
        input_tokens_estimate: z.number().int(),
        response_tokens_estimate: z.number().int(),
        latency_ms: z.number(),
        model_calls: z.number().int().optional(),
        model_tokens_in: z.number().int().optional(),
        model_tokens_out: z.number().int().optional(),
      })
      .optional(),
  };
}
let contractFields: ReturnType<typeof buildContractFields> | undefined;

/** The response contract around a tool's `data`. */
export function contractOutput<D extends z.ZodType>(data: D) {
  const f = (contractFields ??= buildContractFields());
  return z.object({
    success: f.success,
    data: data.nullable(),
    error: f.error,
    confidence: f.confidence,
    confidence_note: f.confidence_note,
    tokens_used: f.tokens_used,
    tokens_saved: f.tokens_saved,
    tokens_over: f.tokens_over,
    engine: f.engine,
    retries: f.retries,
    schema_valid: f.schema_valid,
    model: f.model,
    stats: f.stats,
  });
}

// Input bounds kept out of tools/list (core's unlisted-bounds.ts), for this app's tools.
export { boundedArray, boundedInt, boundedString };

/**
 * An object that takes the keys of `listed` and `unlisted` and refuses any other with zod's
 * `unrecognized_keys` issue, as `.strict()` does, while tools/list shows only `listed` and no
 * `additionalProperties: false`: the first stage of the pipe is what zod lists for input, the
 * second checks the whole object strictly. `unlisted` keeps inputs that older callers send (an
 * alias of something the listing says another way) working without every conversation paying
 * for their text.
 */
export function closedObject<L extends z.ZodRawShape, U extends z.ZodRawShape = Record<never, never>>(listed: L, unlisted?: U) {
  const strict = z.strictObject({ ...listed, ...(unlisted as U) });
  // Typed as unknown: the listed stage passes every key through to the strict one.
  return z.pipe(z.looseObject(listed) as z.ZodType<unknown>, strict);
}

/** Paths under the roots, relative to the first (the server's instructions say so once). */
export const FilesSchema = boundedArray(boundedString(4096), 200, 1);

/** Free-form JSON arguments (`schema`, `variables`) nest at most this deep. */
export const MAX_JSON_DEPTH = 64;

/**
 * A JSON object argument of any shape, nested at most MAX_JSON_DEPTH levels: a value 10,000 levels
 * deep is INVALID_INPUT here, instead of overflowing the stack where a model prompt is built from
 * it (JSON.stringify) or a grammar from it.
 */
export function boundedJsonObject() {
  return z.record(z.string(), z.unknown()).refine((value) => nestingDepth(value, MAX_JSON_DEPTH) <= MAX_JSON_DEPTH, {
    message: `nested more than ${MAX_JSON_DEPTH} levels deep; pass a flatter value`,
  });
}
