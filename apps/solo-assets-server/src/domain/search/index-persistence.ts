/**
 * When a process reads and writes the persisted search index (index-snapshot.ts):
 *
 * - before its first sync for a model, a process restores the snapshot file when it is whole, of
 *   the same model and of the same library file (device and inode), so that sync reads only the
 *   rows with a newer revision than the snapshot's fingerprint;
 * - after a sync that read many rows (a first load from the library, or the changes of many saves
 *   since the file was written: `rowsBeforeWrite`, default 1,000), it writes the index again, in
 *   the background, one write at a time per process. The bytes are taken in the same turn as the
 *   sync, so the file always holds exactly the state of its fingerprint; processes writing at once
 *   each rename a whole file into place, and whichever lands last is as good as the other, since
 *   the next reader brings either up to date through the revisions.
 */
import { statSync } from "node:fs";
import { silentLogger } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import { decodeIndexSnapshot, encodeIndexSnapshot, indexSnapshotPath } from "./index-snapshot.js";
import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "@local-mcp/core";
import type { SearchIndex, SyncReport } from "./search-index.js";

export interface IndexPersistenceOptions {
  dbPath: string;
  /** Rows read by syncs since the file was last read or written before it is written again. */
  rowsBeforeWrite?: number;
  logger?: Logger;
}

export class IndexPersistence {
  private readonly dbPath: string;
  private readonly rowsBeforeWrite: number;
  private readonly logger: Logger;
  private readonly restored = new WeakSet<SearchIndex>();
  private rowsSinceWrite = 0;
  private writing: Promise<void> | undefined;

  constructor(options: IndexPersistenceOptions) {
    this.dbPath = options.dbPath;
    this.rowsBeforeWrite = options.rowsBeforeWrite ?? 1_000;
    this.logger = options.logger ?? silentLogger;
  }

  path(index: SearchIndex): string {
    return indexSnapshotPath(this.dbPath, index.model, index.dimension);
  }

  /** Restores the snapshot into a fresh index once (later calls do nothing). */
  async restore(index: SearchIndex): Promise<void> {
    if (this.restored.has(index)) return;
    this.restored.add(index);
    const started = performance.now();
    const path = this.path(index);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      return;
    }
    const snapshot = decodeIndexSnapshot(bytes, index.model, index.dimension, (why) =>
      this.logger.warn("persisted search index ignored", { path, why }),
    );
    if (!snapshot) return;
    if (snapshot.library !== this.libraryIdentity()) {
      this.logger.info("persisted search index is of another library file; ignored", { path });
      return;
    }
    index.restore(snapshot);
    this.rowsSinceWrite = 0;
    this.logger.info("search index restored", { functions: index.size, ms: Math.round(performance.now() - started) });
  }

  /** After a sync: writes the index when enough rows were read since the file was last in step. */
  afterSync(index: SearchIndex, report: SyncReport): void {
    this.rowsSinceWrite += report.read + report.removed;
    if (this.rowsSinceWrite < this.rowsBeforeWrite || this.writing) return;
    const snapshot = index.snapshot(this.libraryIdentity());
    if (!snapshot) return;
    const bytes = encodeIndexSnapshot(snapshot);
    this.rowsSinceWrite = 0;
    const path = this.path(index);
    const started = performance.now();
    this.writing = writeFileAtomic(path, bytes, { mode: 0o600 })
      .then(() => this.logger.info("search index persisted", { path, bytes: bytes.length, ms: Math.round(performance.now() - started) }))
      .catch((error: unknown) => this.logger.warn("search index not persisted", { path, error: String(error) }))
      .finally(() => {
        this.writing = undefined;
      });
  }

  /** Resolves when no write is in flight (tests, and a process about to exit). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** The library file's device and inode: a snapshot of a file since replaced is not used. */
  private libraryIdentity(): string {
    try {
      const info = statSync(this.dbPath);
      return `${info.dev}:${info.ino}`;
    } catch {
      return "";
    }
  }
}
