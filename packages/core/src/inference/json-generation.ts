import { ToolError } from "../errors.js";
import { abortableDelay } from "../guards/deadline.js";
import { checkJson, schemaProblem } from "./json-check.js";
import type { GenerateRequest, GenerationResult, JsonRequest, JsonResult, PromptInput } from "./types.js";

/** Adds the reason a previous answer was rejected to the prompt, so the next attempt can fix it. */
export function withFeedback(prompt: PromptInput, rejected: string, reason: string): PromptInput {
  const note = `Your previous answer was rejected: ${reason}. Reply again with only JSON that satisfies the schema.`;
  switch (prompt.kind) {
    case "chat":
      return {
        kind: "chat",
        messages: [...prompt.messages, { role: "assistant", content: rejected }, { role: "user", content: note }],
      };
    case "alpaca":
      return { ...prompt, instruction: `${prompt.instruction}\n\n${note}` };
    case "completion":
      return { kind: "completion", text: `${note}\n\n${prompt.text}` };
    case "infill":
      return prompt;
  }
}

export interface JsonLoopOptions {
  /** Pause before retry n is backoffMs · 2^(n-1) (remote servers); 0 for local generation. */
  backoffMs: number;
}

/**
 * JSON-schema generation with a post-check: generate constrained output, parse it, check it with
 * Ajv (finite numbers only), and on failure retry up to `maxRetries` times with the failure fed
 * back into the prompt and a fresh seed. Tokens and time are summed over attempts. After the last
 * failure: UPSTREAM_ERROR carrying the last output for review.
 */
export async function generateValidatedJson<T>(
  generate: (request: GenerateRequest) => Promise<GenerationResult>,
  request: JsonRequest,
  options: JsonLoopOptions,
): Promise<JsonResult<T>> {
  const problem = schemaProblem(request.schema);
  if (problem) throw new ToolError("INVALID_INPUT", `The JSON schema is not valid: ${problem}`, { details: { field: "schema" } });
  const maxRetries = request.maxRetries ?? 2;
  const { schema, maxRetries: _ignored, ...rest } = request;
  let prompt = request.prompt;
  let tokensIn = 0;
  let tokensOut = 0;
  let wallMs = 0;
  let last: { text: string; error: string } | undefined;
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    if (attempt > 0 && options.backoffMs > 0) await abortableDelay(options.backoffMs * 2 ** (attempt - 1), request.signal);
    const result = await generate({
      ...rest,
      prompt,
      jsonSchema: schema,
      // a retry at temperature 0 with the same seed would repeat itself
      ...(attempt > 0 ? { temperature: Math.max(rest.temperature ?? 0, 0.3), seed: (rest.seed ?? 0) + attempt } : {}),
    });
    tokensIn += result.tokensIn;
    tokensOut += result.tokensOut;
    wallMs += result.wallMs;
    const check = checkJson(result.text, schema);
    if (check.ok) {
      return { ...result, tokensIn, tokensOut, wallMs, value: check.value as T, retries: attempt, schemaValid: true };
    }
    last = { text: result.text, error: check.error };
    prompt = withFeedback(request.prompt, result.text, check.error);
  }
  throw new ToolError("UPSTREAM_ERROR", `The model's JSON did not satisfy the schema after ${maxRetries + 1} attempts: ${last?.error}`, {
    suggestion: "Handle this task directly, or simplify the schema.",
    details: { lastOutput: last?.text.slice(0, 2_000), lastError: last?.error, attempts: maxRetries + 1, tokensIn, tokensOut },
  });
}
