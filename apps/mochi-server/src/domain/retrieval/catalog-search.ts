import type { Embedder } from "@local-mcp/core/embeddings";
import { cosine } from "@local-mcp/core/embeddings";
import type { Catalog } from "../catalog/catalog-schema.js";
import { catalogEntries, type CatalogEntry, type CatalogEntryKind } from "./catalog-entries.js";

export interface ScoredEntry {
  entry: CatalogEntry;
  /** Cosine similarity of the query and the entry, clamped to [0, 1]. */
  score: number;
}

export interface SearchOptions {
  kinds?: readonly CatalogEntryKind[];
  limit: number;
  signal?: AbortSignal | undefined;
}

interface Indexed {
  version: string;
  entries: CatalogEntry[];
  vectors: Float32Array[];
}

/**
 * Embedding search over a catalog's entries (core's embedder; the offline LocalEmbedder by
 * default). Entry vectors are computed once per catalog version and reused until the next index.
 */
export class CatalogSearch {
  private indexed: Promise<Indexed> | undefined;
  private indexedVersion: string | undefined;

  constructor(private readonly embedder: Embedder) {}

  get model(): string {
    return this.embedder.model;
  }

  /** Embeds the catalog's entries now (at start, so the first query does not pay for it). */
  warm(catalog: Catalog): Promise<void> {
    return this.index(catalog).then(() => undefined);
  }

  async search(catalog: Catalog, query: string, options: SearchOptions): Promise<ScoredEntry[]> {
    const indexed = await this.index(catalog);
    const [vector] = await this.embedder.embed([query], { task: "query", signal: options.signal });
    if (!vector) return [];
    const scored: ScoredEntry[] = [];
    indexed.entries.forEach((entry, i) => {
      if (options.kinds && !options.kinds.includes(entry.kind)) return;
      const score = Math.max(0, Math.min(1, cosine(vector, indexed.vectors[i] as Float32Array)));
      scored.push({ entry, score: Math.round(score * 1000) / 1000 });
    });
    // Stable: equal scores keep catalog order.
    return scored.sort((a, b) => b.score - a.score).slice(0, options.limit);
  }

  private index(catalog: Catalog): Promise<Indexed> {
    if (this.indexed && this.indexedVersion === catalog.version) return this.indexed;
    const entries = catalogEntries(catalog);
    this.indexedVersion = catalog.version;
    this.indexed = this.embedder
      .embed(
        entries.map((e) => e.text),
        { task: "document" },
      )
      .then((vectors) => ({ version: catalog.version, entries, vectors }));
    this.indexed.catch(() => {
      this.indexed = undefined;
      this.indexedVersion = undefined;
    });
    return this.indexed;
  }
}
