/**
 * Embedding backends beside the built-in one and Gemini (issue 19): an OpenAI-compatible
 * `/v1/embeddings` server (Ollama, llama.cpp's server, vLLM) through core's RemoteBackend, and a
 * local GGUF embedding model (nomic-embed, bge, embeddinggemma in GGUF…) through core's
 * LlamaEngine and LlamaEmbedder — loaded on first use, only when node-llama-cpp is installed.
 *
 * Their dimension is the model's, known after the first embedding (or given in the settings):
 * until then `dimension` is the configured one, or 0. The model id recorded with each vector
 * names the backend and the model (`openai:nomic-embed-text`, `gguf:nomic-embed-text-v1.5.Q8_0.gguf`),
 * so vectors of two models are never compared and `solo-assets reindex` knows what is outdated.
 */
import { ToolError, toToolError } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import type { Embedder } from "@local-mcp/core/embeddings";
import type * as Inference from "@local-mcp/core/inference";

type EmbedOptions = Parameters<Embedder["embed"]>[1];

/** A vector of the wrong length or a non-finite value is the server's fault, said so. */
function checked(vectors: Float32Array[], count: number, what: string, dimension: number): Float32Array[] {
  if (vectors.length !== count) throw new ToolError("UPSTREAM_ERROR", `${what} returned ${vectors.length} vectors for ${count} texts.`);
  for (const vector of vectors) {
    if (vector.length === 0 || (dimension > 0 && vector.length !== dimension)) {
      throw new ToolError(
        "UPSTREAM_ERROR",
        `${what} returned a vector of ${vector.length} values; expected ${dimension || "a fixed length"}.`,
        {
          suggestion:
            "The model changed or the configured dimension is wrong: fix SOLO_EMBEDDING_DIMENSION or the model, then run `solo-assets reindex`.",
        },
      );
    }
    if (!vector.every(Number.isFinite)) throw new ToolError("UPSTREAM_ERROR", `${what} returned a vector with non-finite values.`);
  }
  return vectors;
}

export interface OpenAiEmbedderOptions {
  /** The API's base, e.g. http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8080/v1 (llama.cpp server). */
  baseUrl: string;
  model: string;
  /** Sent as a Bearer token when set. */
  apiKey?: string | undefined;
  /** The model's dimension when known (else learnt from the first answer). */
  dimension?: number | undefined;
  timeoutMs?: number;
  logger?: Logger;
}

export class OpenAiCompatibleEmbedder implements Embedder {
  readonly model: string;
  private known: number;
  private backend: Inference.RemoteBackend | undefined;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.model = `openai:${options.model}`;
    this.known = options.dimension ?? 0;
  }

  get dimension(): number {
    return this.known;
  }

  async embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    // Imported on first use: the inference subpath is not needed by the other backends.
    const { RemoteBackend } = await import("@local-mcp/core/inference");
    this.backend ??= new RemoteBackend(
      {
        baseUrl: this.options.baseUrl,
        model: this.options.model,
        ...(this.options.apiKey ? { apiKey: this.options.apiKey } : {}),
        deadlineMs: this.options.timeoutMs ?? 60_000,
      },
      this.options.logger ? { logger: this.options.logger } : {},
    );
    let vectors: Float32Array[];
    try {
      vectors = await this.backend.embed(texts, options.signal ? { signal: options.signal } : {});
    } catch (error) {
      const failure = toToolError(error);
      if (options.signal?.aborted) throw failure;
      throw new ToolError("UPSTREAM_ERROR", `The embedding server at ${this.options.baseUrl} failed: ${failure.message}`, {
        suggestion: `Start the server (e.g. \`ollama serve\` and \`ollama pull ${this.options.model}\`) or fix SOLO_EMBEDDING_URL / SOLO_EMBEDDING_MODEL.`,
      });
    }
    checked(vectors, texts.length, `The embedding server at ${this.options.baseUrl}`, this.known);
    this.known ||= vectors[0]?.length ?? 0;
    return vectors;
  }
}

export interface GgufEmbedderOptions {
  modelPath: string;
  threads?: number | undefined;
  timeoutMs?: number;
  logger: Logger;
}

export class GgufEmbedder implements Embedder {
  readonly model: string;
  private known = 0;
  private engine: Promise<{ engine: Inference.LlamaEngine; embedder: Inference.LlamaEmbedder }> | undefined;

  constructor(private readonly options: GgufEmbedderOptions) {
    this.model = `gguf:${options.modelPath.split(/[\\/]/).pop() ?? options.modelPath}`;
  }

  get dimension(): number {
    return this.known;
  }

  async embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { embedder } = await (this.engine ??= this.load().catch((error: unknown) => {
      this.engine = undefined;
      throw error;
    }));
    const vectors = checked(await embedder.embed(texts, options), texts.length, `The GGUF model ${this.model}`, this.known);
    this.known ||= vectors[0]?.length ?? 0;
    return vectors;
  }

  async dispose(): Promise<void> {
    const loaded = await this.engine?.catch(() => undefined);
    await loaded?.engine.dispose();
  }

  private async load(): Promise<{ engine: Inference.LlamaEngine; embedder: Inference.LlamaEmbedder }> {
    let inference: typeof Inference;
    try {
      inference = await import("@local-mcp/core/inference");
    } catch (error) {
      throw new ToolError("NOT_READY", `GGUF embeddings need node-llama-cpp: ${String(error)}`, {
        suggestion:
          "Install node-llama-cpp beside the server (npx -p node-llama-cpp -p @local-mcp/solo-assets-server …), or choose another embedder.",
      });
    }
    const engine = new inference.LlamaEngine(
      {
        modelPath: this.options.modelPath,
        contextSize: 2048,
        deadlineMs: this.options.timeoutMs ?? 60_000,
        ...(this.options.threads === undefined ? {} : { threads: this.options.threads }),
      },
      { logger: this.options.logger },
    );
    await engine.load();
    return { engine, embedder: await inference.LlamaEmbedder.create(engine) };
  }
}
