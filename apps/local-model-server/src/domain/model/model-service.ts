/**
 * The model behind the judgment tasks: a GGUF through core's LlamaEngine, or an OpenAI-compatible
 * server through core's RemoteBackend, chosen by config and created on the first model task
 * (`@local-mcp/core/inference`, and with it node-llama-cpp, is imported only then). Every call is
 * JSON-schema-constrained and checked with Ajv by core, with retries that feed the validation
 * error back. A schema-valid answer then passes the gate (answer-gate.ts): the task's check
 * (substance, cited facts), retried with the reason fed back within the same attempt budget, and
 * the confidence policy for servers that return no token probabilities. Without a model, model
 * tasks are NOT_READY with a suggestion.
 */
import { ToolError, toToolError, type Logger } from "@local-mcp/core";
import type { ChatMessage, InferenceBackend, JsonResult, JsonSchema } from "@local-mcp/core/inference";
import type { ModelConfig } from "../../config.js";
import { unknownConfidenceReason, type AnswerCheck } from "./answer-gate.js";

export interface ModelTask<T = unknown> {
  messages: ChatMessage[];
  schema: JsonSchema;
  /** Longest string / most array items the grammar allows where the schema sets none. */
  grammarBounds?: { maxStringLength: number; maxArrayItems: number };
  maxTokens?: number;
  /** The gate's check of a schema-valid answer (answer-gate.ts): a reason rejects it, and it is retried. */
  check?: AnswerCheck<T>;
}

export interface ModelAnswer<T = unknown> {
  value: T;
  confidence: number;
  /** Set when the server gave no token probabilities (LOCAL_MODEL_CONFIDENCE=optional): why `confidence` is unknown. */
  confidenceUnknown?: string;
  tokensIn: number;
  tokensOut: number;
  /** Attempts after the first: schema failures and answers the gate rejected. */
  retries: number;
  schemaValid: boolean;
}

export interface ModelServiceOptions {
  logger: Logger;
  /** Deadline of one tool call; the engine's own deadline is set to it. */
  timeoutMs: number;
  maxRetries: number;
  /** What to do with an answer whose server gave no token probabilities (config `confidencePolicy`); default require. */
  confidencePolicy?: "require" | "optional";
}

/** The setting that decides about answers without token probabilities, as a user sets it. */
export const CONFIDENCE_SETTING = "LOCAL_MODEL_CONFIDENCE (validation.confidence in local-model.config.json)";

export const NO_MODEL_SUGGESTION =
  "Handle this task directly, or configure a model: model.path (a GGUF file) or remote.base_url + remote.model in local-model.config.json, or LOCAL_MODEL_MODEL_PATH / LOCAL_MODEL_REMOTE_BASE_URL.";

export class ModelService {
  private backend: Promise<InferenceBackend> | undefined;
  private loaded: Promise<InferenceBackend> | undefined;

  constructor(
    readonly config: ModelConfig,
    private readonly options: ModelServiceOptions,
  ) {}

  get configured(): boolean {
    return this.config.kind !== "none";
  }

  get name(): string | undefined {
    if (this.config.kind === "llama") return this.config.path.split(/[\\/]/).pop();
    if (this.config.kind === "remote") return `${this.config.model} @ ${this.config.baseUrl}`;
    return undefined;
  }

  /** Throws NOT_READY (with what to do) when no model is configured. */
  assertConfigured(what: string): void {
    if (this.configured) return;
    throw new ToolError("NOT_READY", `No model is configured, and ${what} needs one.`, {
      recoverable: false,
      suggestion: NO_MODEL_SUGGESTION,
      details: { subject: "model", state: "unconfigured" },
    });
  }

  /** Starts loading in the background (config `preload`). */
  preload(): void {
    if (!this.configured) return;
    this.ensureLoaded().catch((error: unknown) => this.options.logger.warn("model preload failed", { error: (error as Error).message }));
  }

  /** Loads the model (once; concurrent callers share the load). */
  ensureLoaded(onProgress?: (fraction: number) => void): Promise<InferenceBackend> {
    this.assertConfigured("this task");
    this.loaded ??= this.createBackend().then(async (backend) => {
      await backend.load(onProgress ? { onProgress } : {});
      return backend;
    });
    const loaded = this.loaded;
    // A remote server that was down may come up later: forget a failed check.
    loaded.catch(() => {
      if (this.config.kind === "remote" && this.loaded === loaded) this.loaded = undefined;
    });
    return loaded.catch((error: unknown) => {
      const failure = toToolError(error);
      if (failure.code === "NOT_READY" || failure.code === "INTERNAL") {
        throw new ToolError("NOT_READY", `The model is not usable: ${failure.message}`, {
          recoverable: false,
          suggestion: `Handle this task directly, or fix the model configuration (${this.name ?? "none"}); \`local-model config check\` shows the problem.`,
          details: { subject: "model", state: "failed" },
        });
      }
      throw failure;
    });
  }

  /**
   * One schema-constrained answer, checked with Ajv and then by the gate (`task.check`, the
   * confidence policy). A schema failure or a rejected answer is retried with the reason fed back;
   * at most `maxRetries + 1` generations in all, then UPSTREAM_ERROR.
   */
  async json<T = unknown>(task: ModelTask<T>, signal: AbortSignal, onProgress?: (fraction: number) => void): Promise<ModelAnswer<T>> {
    const backend = await this.ensureLoaded(onProgress);
    const maxTokens = task.maxTokens ?? (this.config.kind === "none" ? 1024 : this.config.maxTokens);
    const budget = this.options.maxRetries + 1;
    let used = 0;
    let tokensIn = 0;
    let tokensOut = 0;
    let messages = task.messages;
    for (;;) {
      let result: JsonResult<T>;
      try {
        result = await backend.json<T>({
          prompt: { kind: "chat", messages },
          schema: task.schema,
          maxRetries: budget - used - 1,
          maxTokens,
          // a retry after a rejection at temperature 0 with the same seed could repeat itself
          ...(used === 0 ? { temperature: 0 } : { temperature: 0.3, seed: used }),
          signal,
          deadlineMs: this.options.timeoutMs,
          ...(task.grammarBounds ? { grammarBounds: task.grammarBounds } : {}),
        });
      } catch (error) {
        throw used === 0 ? error : withAttempts(error, budget, tokensIn, tokensOut);
      }
      used += result.retries + 1;
      tokensIn += result.tokensIn;
      tokensOut += result.tokensOut;
      const unknown = result.confidenceKnown === false ? unknownConfidenceReason(this.name) : undefined;
      if (unknown && this.options.confidencePolicy !== "optional") {
        throw new ToolError(
          "UPSTREAM_ERROR",
          `Refused: ${unknown}, and LOCAL_MODEL_CONFIDENCE=require (the default) refuses such answers.`,
          {
            recoverable: false,
            suggestion: `Set ${CONFIDENCE_SETTING} to optional to accept answers with confidence null, use a server that returns logprobs (llama.cpp's server, vLLM), or handle this task directly.`,
            details: { setting: "LOCAL_MODEL_CONFIDENCE", value: "require", tokensIn, tokensOut },
          },
        );
      }
      const problem = task.check?.(result.value);
      if (problem === undefined) {
        return {
          value: result.value,
          confidence: result.confidence,
          ...(unknown ? { confidenceUnknown: unknown } : {}),
          tokensIn,
          tokensOut,
          retries: used - 1,
          schemaValid: result.schemaValid,
        };
      }
      const output = JSON.stringify(result.value);
      if (used >= budget) {
        throw new ToolError("UPSTREAM_ERROR", `The model's answer was refused after ${used} attempt${used === 1 ? "" : "s"}: ${problem}.`, {
          suggestion: "Handle this task directly: the model's answers did not hold up against the input.",
          details: { lastOutput: output.slice(0, 2_000), lastError: problem, attempts: used, tokensIn, tokensOut },
        });
      }
      messages = [
        ...task.messages,
        { role: "assistant", content: output },
        { role: "user", content: `Your previous answer was rejected: ${problem}. Reply again with only JSON that satisfies the schema.` },
      ];
    }
  }

  async dispose(): Promise<void> {
    const backend = await this.backend?.catch(() => undefined);
    await backend?.dispose();
  }

  private createBackend(): Promise<InferenceBackend> {
    this.backend ??= (async () => {
      const inference = await import("@local-mcp/core/inference");
      const logger = this.options.logger.child("model");
      const config = this.config;
      let backend: InferenceBackend;
      if (config.kind === "llama") {
        backend = new inference.LlamaEngine(
          {
            modelPath: config.path,
            gpu: config.gpu,
            contextSize: config.contextSize,
            deadlineMs: this.options.timeoutMs,
            ...(config.threads === undefined ? {} : { threads: config.threads }),
          },
          { logger },
        );
      } else if (config.kind === "remote") {
        backend = new inference.RemoteBackend(
          {
            baseUrl: config.baseUrl,
            model: config.model,
            deadlineMs: this.options.timeoutMs,
            ...(config.apiKey ? { apiKey: config.apiKey } : {}),
          },
          { logger },
        );
      } else {
        throw new ToolError("NOT_READY", "No model is configured.", { suggestion: NO_MODEL_SUGGESTION });
      }
      return backend;
    })();
    return this.backend;
  }
}

/** A schema failure after the gate rejected earlier answers: the attempts and tokens of the whole call. */
function withAttempts(error: unknown, budget: number, tokensIn: number, tokensOut: number): unknown {
  const failure = toToolError(error);
  if (failure.code !== "UPSTREAM_ERROR") return error;
  const details = (failure.details ?? {}) as Record<string, unknown>;
  const add = (key: string, value: number) => (typeof details[key] === "number" ? (details[key] as number) + value : value);
  return new ToolError(failure.code, failure.message, {
    suggestion: failure.suggestion,
    details: { ...details, attempts: budget, tokensIn: add("tokensIn", tokensIn), tokensOut: add("tokensOut", tokensOut) },
  });
}
