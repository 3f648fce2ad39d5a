/**
 * The built-in embedder of solo-assets (issue 19): core's LocalEmbedder (word stems, a general
 * thesaurus, character n-grams, word pairs, hashed) over a text that says more — the function's
 * name and description weigh twice its docstring and signature (they are written in the words
 * agents search with), and the concept words of code-thesaurus.ts are appended, so "credentials"
 * meets "password" and "2h15m" meets "duration". Offline, deterministic, no model file.
 */
import { LOCAL_EMBEDDER_DEFAULT_DIMENSION, LocalEmbedder } from "@local-mcp/core/embeddings";
import type { Embedder } from "@local-mcp/core/embeddings";
import { conceptWords } from "./code-thesaurus.js";

/** Part of the model name; bump when the thesaurus or the text's shape changes. */
export const BUILTIN_EMBEDDER_VERSION = 2;

/**
 * Search's minimum relevance with this embedder: a function that shares no keyword (nor thesaurus
 * word) with the query and whose cosine is below this is not returned. Measured on both labelled
 * sets (test/search-quality.test.ts): it drops 1 of 104 intended hits, while a query on a topic the
 * library lacks (a date parser against rolling_mean) returns nothing.
 */
export const BUILTIN_MIN_SIMILARITY = 0.2;

export class BuiltinEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  private readonly local: LocalEmbedder;

  constructor(options: { dimension?: number } = {}) {
    this.local = new LocalEmbedder({ dimension: options.dimension ?? LOCAL_EMBEDDER_DEFAULT_DIMENSION });
    this.dimension = this.local.dimension;
    this.model = `solo-builtin-v${BUILTIN_EMBEDDER_VERSION}-${this.dimension}`;
  }

  embed(texts: readonly string[], options: Parameters<Embedder["embed"]>[1]): Promise<Float32Array[]> {
    return this.local.embed(
      texts.map((text) => expandedText(text)),
      options,
    );
  }
}

/** The text with its concept words appended (documents and queries alike). */
export function expandedText(text: string): string {
  const concepts = conceptWords(text);
  return concepts.length > 0 ? `${text}\n${concepts.join(" ")}` : text;
}
