/** Input and output schema pieces every tool of this server shares. */
import { z } from "zod";
import { nestingDepth } from "@local-mcp/core";

export const EngineChoiceSchema = z
  .enum(["auto", "deterministic", "model"])
  // Explained once, in the server's instructions (server.ts).
  .optional();

/** The contract's fields other than `data`, built once (zod schemas are immutable, so every tool's output shares them). */
function buildContractFields() {
  return {
    success: z.boolean().describe("false when the result should not be trusted as is: see error; data is kept for review"),
    error: z.string().nullable(),
    confidence: z.number().min(0).max(1).describe("1 for deterministic engines; the model's own confidence otherwise"),
    tokens_used: z.number().int().min(0).describe("model tokens (prompt + generated, all attempts); 0 without the model"),
    tokens_saved: z.number().int().min(0).describe("estimated tokens of the input Claude did not have to read, minus this response's (chars/4); 0 when the response cost more"),
    tokens_over: z.number().int().min(1).optional().describe("present when this response cost more tokens than reading its input would have: by how many (chars/4)"),
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

export const FilesSchema = z
  .array(z.string().min(1).max(4096))
  .min(1)
  .max(200)
  .describe("Paths under the roots (relative to the first)");

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
