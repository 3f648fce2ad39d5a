import { createLogger, ToolError, type Logger } from "@local-mcp/core";
import { createEmbedder, type Embedder } from "@local-mcp/core/embeddings";
import type { MochiConfig } from "./config.js";
import { CatalogStore } from "./domain/catalog/catalog-store.js";
import type { RepositoryContextSettings } from "./domain/context/repository-context.js";
import { LatencyRecorder } from "./domain/model/latency-recorder.js";
import { MochiModel } from "./domain/model/mochi-model.js";
import { RemoteMochiModel } from "./domain/model/remote-model.js";
import type { Serving, ServedModel } from "./domain/model/served-model.js";
import { CatalogSearch } from "./domain/retrieval/catalog-search.js";

export interface MochiRuntimeOptions {
  logger?: Logger;
  /** The embedder for catalog retrieval; the built-in offline one by default. */
  embedder?: Embedder;
}

/**
 * What one mochi process holds, shared by every session (stdio has one, HTTP one per client):
 * the catalog, its embedding index, the model and the latency record.
 */
export class MochiRuntime {
  readonly logger: Logger;
  readonly catalog: CatalogStore;
  readonly search: CatalogSearch;
  /** The local GGUF engine, or the OpenAI-compatible server of MOCHI_BACKEND_URL. */
  readonly model: ServedModel;
  /** How the model is served, as every model answer and mochi://stats say. */
  readonly serving: Serving;
  readonly latency = new LatencyRecorder();
  private started: Promise<void> | undefined;

  constructor(
    readonly config: MochiConfig,
    options: MochiRuntimeOptions = {},
  ) {
    this.logger = options.logger ?? createLogger({ name: "mochi-mcp", level: config.logLevel });
    this.catalog = new CatalogStore(config.catalogPath);
    this.search = new CatalogSearch(options.embedder ?? createEmbedder());
    const backend = config.backend;
    this.serving = backend
      ? { kind: "remote", model: backend.model, url: backend.url }
      : config.stockModel
        ? { kind: "stock" }
        : { kind: "adapter" };
    this.model = backend
      ? new RemoteMochiModel({ ...backend, memoryBoundBytes: config.memoryBoundBytes, deadlineMs: config.deadlineMs }, this.logger)
      : new MochiModel(
          {
            modelPath: config.modelPath,
            adapters: config.adapters,
            stockModel: config.stockModel,
            gpu: config.gpu,
            threads: config.threads,
            contextSize: config.contextSize,
            memoryBoundBytes: config.memoryBoundBytes,
            deadlineMs: config.deadlineMs,
          },
          this.logger,
        );
  }

  /**
   * Starts the background work once: preloads the model (progress on stderr) and embeds the
   * catalog. Resolves when both are done; failures are logged and kept in the readiness states.
   */
  start(): Promise<void> {
    this.started ??= (async () => {
      const catalog = this.catalog.peek();
      if (!catalog)
        this.logger.warn(`no catalog at ${this.config.catalogPath}; run \`mochi index <repo>\` (suggest_pattern and resources need it)`);
      const warming = catalog
        ? this.search.warm(catalog).catch((error: unknown) => this.logger.warn("catalog embedding failed", { error }))
        : Promise.resolve();
      if (!this.model.configured) {
        this.logger.info(
          `model tools are not ready: ${this.model.readiness.state.state === "unconfigured" ? this.model.readiness.state.reason : "not configured"}`,
        );
        await warming;
        return;
      }
      const began = performance.now();
      let reported = -1;
      this.logger.info(
        this.config.backend
          ? `using the model ${this.config.backend.model} on the OpenAI-compatible server at ${this.config.backend.url}`
          : `loading model ${this.config.modelPath ?? ""} with ${this.config.stockModel ? "no adapter (MOCHI_ADAPTER=none: the stock model)" : `${this.config.adapters.length} adapter(s)`}`,
      );
      await this.model.preload((fraction) => {
        const step = Math.floor(fraction * 4);
        if (step > reported) {
          reported = step;
          this.logger.info(`loading model ${Math.round(fraction * 100)}%`);
        }
      });
      if (this.model.readiness.isReady)
        this.logger.info(`model ready: ${this.model.name ?? ""} in ${Math.round(performance.now() - began)} ms`);
      await warming;
    })();
    return this.started;
  }

  /** L-adapter-required for catalog features when MOCHI_REQUIRE_ADAPTER is set. */
  assertCatalogFeaturesAllowed(): void {
    if (this.config.requireAdapter) this.model.readiness.assertReady();
  }

  /** Whether and how much repository context complete_code and domain_query add (MOCHI_CONTEXT, the model's context and token count). */
  get contextSettings(): RepositoryContextSettings {
    const countTokens = this.model.countTokens?.bind(this.model);
    return { enabled: this.config.repositoryContext, contextSize: this.config.contextSize, countTokens };
  }

  /** Remaining milliseconds of a call that started at `startedAt` (performance.now()). */
  remainingMs(startedAt: number): number {
    const left = this.config.deadlineMs - (performance.now() - startedAt);
    if (left <= 0) throw new ToolError("TIMEOUT", `The deadline of ${this.config.deadlineMs} ms has passed.`);
    return Math.max(1, Math.floor(left));
  }

  async dispose(): Promise<void> {
    await this.started?.catch(() => undefined);
    await this.model.dispose();
  }
}
