import { isToolError, MemoryGuard, Readiness, ToolError, type Logger } from "@local-mcp/core";
import type { GenerateRequest, GenerationResult, JsonRequest, JsonResult, LlamaEngine } from "@local-mcp/core/inference";
import type { AdapterSpec } from "./adapter-spec.js";
import type { ServedModel } from "./served-model.js";

export interface ModelSettings {
  /** The base model GGUF; unset means no model tools. */
  modelPath?: string | undefined;
  /** GGUF LoRA adapters; L-adapter-required wants at least one, unless `stockModel`. */
  adapters: readonly AdapterSpec[];
  /** MOCHI_ADAPTER=none: the base model serves alone, on purpose (answers say so). */
  stockModel?: boolean | undefined;
  gpu: "auto" | "metal" | "cuda" | "vulkan" | "cpu";
  threads?: number | undefined;
  contextSize: number;
  memoryBoundBytes: number;
  deadlineMs: number;
}

/**
 * Readiness that keeps why loading failed: a load the memory guard refused answers
 * RESOURCE_EXHAUSTED (L-memory-bound) rather than a generic NOT_READY.
 */
class ModelReadiness extends Readiness {
  failure: ToolError | undefined;

  override assertReady(): void {
    if (this.state.state === "failed" && this.failure?.code === "RESOURCE_EXHAUSTED") throw this.failure;
    try {
      super.assertReady();
    } catch (error) {
      if (this.state.state !== "unconfigured" || !isToolError(error)) throw error;
      // The same error, with the other ways to a usable model added to what to do.
      throw new ToolError(error.code, error.message, {
        recoverable: error.recoverable,
        suggestion: `${error.suggestion} MOCHI_ADAPTER=none serves the stock base model without an adapter; MOCHI_BACKEND_URL with MOCHI_BACKEND_MODEL uses an OpenAI-compatible server instead of MOCHI_MODEL.`,
        details: error.details,
      });
    }
  }
}

/**
 * The base model with its LoRA adapter(s), behind a readiness guard (L-adapter-required): model
 * tools answer NOT_READY until both are loaded — "unconfigured" naming the missing variable,
 * "loading" with progress, or "failed" with the reason. node-llama-cpp is imported only when a
 * model is configured and loading starts, so catalog-only use never loads it.
 */
export class MochiModel implements ServedModel {
  readonly readiness = new ModelReadiness("Mochi model (base + LoRA adapter)");
  readonly memoryGuard: MemoryGuard;
  private engine: LlamaEngine | undefined;
  private loading: Promise<void> | undefined;

  constructor(
    readonly settings: ModelSettings,
    private readonly logger: Logger,
  ) {
    this.memoryGuard = new MemoryGuard({ boundBytes: settings.memoryBoundBytes });
    if (!settings.modelPath) {
      this.readiness.markUnconfigured("MOCHI_MODEL is not set, so there is no base model to run");
    } else if (settings.adapters.length === 0 && !settings.stockModel) {
      this.readiness.markUnconfigured(
        "MOCHI_ADAPTER is not set: Mochi answers with the codebase's LoRA adapter on top of the base model (use `adapter.gguf:0` to run the base model's behaviour through an adapter at scale 0)",
      );
    } else {
      this.readiness.markLoading("loading has not started");
    }
  }

  /** Whether base and adapter (or MOCHI_ADAPTER=none) are both configured (loading can start). */
  get configured(): boolean {
    return Boolean(this.settings.modelPath) && (this.settings.adapters.length > 0 || this.settings.stockModel === true);
  }

  /** The model's name as recorded in results: `base.gguf+adapter.gguf@1`, or `base.gguf` for the stock model. */
  get name(): string | undefined {
    return this.engine?.modelName;
  }

  /**
   * Starts loading once, in the background; resolves when the load has finished or failed (it
   * never rejects: the failure is in `readiness`). Progress fractions go to `onProgress`.
   */
  preload(onProgress?: (fraction: number) => void): Promise<void> {
    if (!this.configured) return Promise.resolve();
    this.loading ??= (async () => {
      const s = this.settings;
      try {
        // The headers first, through core's gguf subpath only: a model or adapter that cannot load
        // (not GGUF, missing keys, an adapter for another model) fails here, NOT_READY naming the
        // file, before the inference engine and its modules are loaded at all.
        const { readLoadableLoraHeader, readLoadableModelHeader } = await import("@local-mcp/core/gguf");
        const model = await readLoadableModelHeader(s.modelPath as string);
        for (const adapter of s.adapters) await readLoadableLoraHeader(adapter.path, model);
        const { LlamaEngine } = await import("@local-mcp/core/inference");
        const engine = new LlamaEngine(
          {
            modelPath: s.modelPath as string,
            adapters: s.adapters.map((a) => ({ path: a.path, scale: a.scale })),
            gpu: s.gpu,
            ...(s.threads === undefined ? {} : { threads: s.threads }),
            contextSize: s.contextSize,
            sequences: 1,
            // One sequence per model, its cache kept between calls: completions in the same file
            // share the prompt up to the cursor, so only the rest is evaluated (docs/mochi.md, Latency).
            reusePrefix: true,
            memoryBoundBytes: s.memoryBoundBytes,
            deadlineMs: s.deadlineMs,
          },
          { logger: this.logger.child("llama"), memoryGuard: this.memoryGuard },
        );
        this.engine = engine;
        this.readiness.markLoading(`loading ${engine.modelName}`, 0);
        await engine.load({
          onProgress: (fraction) => {
            this.readiness.markLoading(`loading ${engine.modelName}`, fraction);
            onProgress?.(fraction);
          },
        });
        this.readiness.markReady();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (isToolError(error)) this.readiness.failure = error;
        this.readiness.markFailed(isToolError(error) ? `${error.code}: ${message}` : message);
        this.logger.error("model load failed", { error: message });
      }
    })();
    return this.loading;
  }

  /** Whether the loaded model has fill-in-the-middle tokens. */
  get hasInfillTokens(): boolean {
    return this.engine?.hasInfillTokens ?? false;
  }

  generate(request: GenerateRequest): Promise<GenerationResult> {
    return this.ready().generate(request);
  }

  json<T = unknown>(request: JsonRequest): Promise<JsonResult<T>> {
    return this.ready().json<T>(request);
  }

  /** Tokens of a text in the model's own vocabulary (no BOS): repository context is budgeted with it. */
  async countTokens(text: string): Promise<number> {
    return (await this.ready().tokenize(text)).length;
  }

  private ready(): LlamaEngine {
    this.readiness.assertReady();
    if (!this.engine) throw new ToolError("NOT_READY", "The model is not loaded.");
    return this.engine;
  }

  async dispose(): Promise<void> {
    await this.loading;
    await this.engine?.dispose();
    this.engine = undefined;
  }
}
