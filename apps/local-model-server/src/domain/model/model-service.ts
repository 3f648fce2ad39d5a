/**
 * The model behind the judgment tasks: a GGUF through core's LlamaEngine, or an OpenAI-compatible
 * server through core's RemoteBackend, chosen by config and created on the first model task
 * (`@local-mcp/core/inference`, and with it node-llama-cpp, is imported only then). Every call is
 * JSON-schema-constrained and checked with Ajv by core, with retries that feed the validation
 * error back. Without a model, model tasks are NOT_READY with a suggestion.
 */
import { ToolError, toToolError, type Logger } from "@local-mcp/core";
import type { ChatMessage, InferenceBackend, JsonSchema } from "@local-mcp/core/inference";
import type { ModelConfig } from "../../config.js";

export interface ModelTask {
  messages: ChatMessage[];
  schema: JsonSchema;
  /** Longest string / most array items the grammar allows where the schema sets none. */
  grammarBounds?: { maxStringLength: number; maxArrayItems: number };
  maxTokens?: number;
}

export interface ModelAnswer<T = unknown> {
  value: T;
  confidence: number;
  tokensIn: number;
  tokensOut: number;
  retries: number;
  schemaValid: boolean;
}

export interface ModelServiceOptions {
  logger: Logger;
  /** Deadline of one tool call; the engine's own deadline is set to it. */
  timeoutMs: number;
  maxRetries: number;
}

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

  /** One schema-constrained answer, checked with Ajv, retried with the error fed back. */
  async json<T = unknown>(task: ModelTask, signal: AbortSignal, onProgress?: (fraction: number) => void): Promise<ModelAnswer<T>> {
    const backend = await this.ensureLoaded(onProgress);
    const maxTokens = task.maxTokens ?? (this.config.kind === "none" ? 1024 : this.config.maxTokens);
    const result = await backend.json<T>({
      prompt: { kind: "chat", messages: task.messages },
      schema: task.schema,
      maxRetries: this.options.maxRetries,
      maxTokens,
      temperature: 0,
      signal,
      deadlineMs: this.options.timeoutMs,
      ...(task.grammarBounds ? { grammarBounds: task.grammarBounds } : {}),
    });
    return {
      value: result.value,
      confidence: result.confidence,
      tokensIn: result.tokensIn,
      tokensOut: result.tokensOut,
      retries: result.retries,
      schemaValid: result.schemaValid,
    };
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
