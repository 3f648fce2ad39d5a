import type { EmbedOptions, Embedder } from "../embeddings/embedder.js";
import type { LlamaEngine } from "./llama-engine.js";

/**
 * The Embedder interface over a GGUF model run by LlamaEngine (an embedding model such as
 * nomic-embed or bge in GGUF, or any model llama.cpp can pool). Built with `create`, which loads
 * the model so the dimension is known. The task is ignored: these models embed queries and
 * documents alike.
 */
export class LlamaEmbedder implements Embedder {
  private constructor(
    private readonly engine: LlamaEngine,
    readonly model: string,
    readonly dimension: number,
  ) {}

  static async create(engine: LlamaEngine): Promise<LlamaEmbedder> {
    const [probe] = await engine.embed(["dimension probe"]);
    return new LlamaEmbedder(engine, `gguf:${engine.modelName}`, probe?.length ?? 0);
  }

  embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return this.engine.embed(texts, options.signal ? { signal: options.signal } : {});
  }
}
