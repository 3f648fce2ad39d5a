/**
 * Runs one tool call's work and turns its outcome into the contract response, recording the
 * call (engine, tokens, latency, or the error code) in the stats store.
 */
import { ToolError, toToolError, type ToolContext } from "@local-mcp/core";
import type { ModelAnswer } from "../domain/model/model-service.js";
import type { LocalModelRuntime } from "../runtime.js";
import { TaskResponse, type ModelUsage, type TaskOutcome } from "./task-response.js";

export async function runTask(
  runtime: LocalModelRuntime,
  tool: string,
  ctx: ToolContext,
  work: () => Promise<TaskOutcome>,
): Promise<TaskResponse> {
  const started = performance.now();
  try {
    const outcome = await work();
    const latencyMs = performance.now() - started;
    const response = new TaskResponse(outcome, {
      confidenceThreshold: runtime.config.confidenceThreshold,
      strictSchema: runtime.config.strictSchema,
      renderLevel: ctx.level,
      latencyMs,
    });
    runtime.stats.record({
      tool,
      latencyMs,
      result: {
        engine: response.engine,
        tokensUsed: response.tokensUsed,
        tokensSaved: response.tokensSaved,
        tokensOver: response.tokensOver,
      },
    });
    return response;
  } catch (caught) {
    const error = tooDeep(caught) ?? caught;
    runtime.stats.record({ tool, latencyMs: performance.now() - started, errorCode: toToolError(error).code });
    throw error;
  }
}

/**
 * A stack overflow while walking a parsed input (a 20,000-term `1+1+…` or `else if` chain makes
 * the syntax tree that deep) is a property of the input, not a server bug: INVALID_INPUT.
 */
function tooDeep(error: unknown): ToolError | undefined {
  if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) return undefined;
  return new ToolError(
    "INVALID_INPUT",
    "The input nests too deeply to process (the parser or a walk over its syntax tree ran out of stack).",
    {
      suggestion: "Generated or hostile input this deeply nested is not analysed; handle this file directly.",
    },
  );
}

/** Adds up the model calls of one tool call. */
export class ModelTally {
  private calls = 0;
  private tokensIn = 0;
  private tokensOut = 0;
  private retries = 0;
  private schemaValid = true;
  private confidence = 1;
  private confidenceUnknown: string | undefined;

  add<T>(answer: ModelAnswer<T>): T {
    this.calls += 1;
    this.tokensIn += answer.tokensIn;
    this.tokensOut += answer.tokensOut;
    this.retries += answer.retries;
    this.schemaValid &&= answer.schemaValid;
    if (answer.confidenceUnknown !== undefined) this.confidenceUnknown ??= answer.confidenceUnknown;
    else this.confidence = Math.min(this.confidence, answer.confidence);
    return answer.value;
  }

  /** Tokens of model calls that ended in an error (a refused answer), taken from its details. */
  addFailed(details: Record<string, unknown> | undefined): void {
    const n = (key: string) => (typeof details?.[key] === "number" ? (details[key] as number) : 0);
    if (n("tokensIn") + n("tokensOut") === 0) return;
    this.calls += 1;
    this.tokensIn += n("tokensIn");
    this.tokensOut += n("tokensOut");
  }

  usage(name: string | undefined): ModelUsage | undefined {
    if (this.calls === 0) return undefined;
    return {
      name,
      calls: this.calls,
      tokensIn: this.tokensIn,
      tokensOut: this.tokensOut,
      retries: this.retries,
      schemaValid: this.schemaValid,
      confidence: this.confidence,
      ...(this.confidenceUnknown === undefined ? {} : { confidenceUnknown: this.confidenceUnknown }),
    };
  }
}

/** Progress over `total` items, for clients that asked for it. */
export function itemProgress(ctx: ToolContext, total: number, done: number, message: string): void {
  ctx.progress({ progress: done, total, message });
}
