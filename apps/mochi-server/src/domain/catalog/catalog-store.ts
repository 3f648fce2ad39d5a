import type { Catalog } from "./catalog-schema.js";
import { fileStamp, readCatalogFile } from "./catalog-file.js";

/**
 * The catalog a server serves. Each access checks the file's identity (inode, size, mtime) and
 * re-reads it after `mochi index` replaced it, so resources change exactly when the catalog does
 * (L-idempotent-resource) without a restart.
 */
export class CatalogStore {
  private loaded: { stamp: string; catalog: Catalog } | undefined;

  constructor(readonly path: string) {}

  /** The current catalog; throws NOT_READY when there is none or it is not a catalog. */
  current(): Catalog {
    const stamp = fileStamp(this.path);
    if (stamp !== undefined && this.loaded?.stamp === stamp) return this.loaded.catalog;
    const catalog = readCatalogFile(this.path);
    if (stamp !== undefined) this.loaded = { stamp, catalog };
    return catalog;
  }

  /** The current catalog, or undefined instead of an error. */
  peek(): Catalog | undefined {
    try {
      return this.current();
    } catch {
      return undefined;
    }
  }
}
