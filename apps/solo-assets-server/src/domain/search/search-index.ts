/**
 * The in-memory search index of one process, kept in step with the library file.
 *
 * Why in memory: no process may keep the DuckDB file open (every Claude Code session runs its
 * own server and they share the file), so a brute-force cosine in DuckDB re-reads every vector
 * from the file on every search — 820 ms at 100k functions of 768 dimensions, against a 50 ms
 * target. Here each process holds, per function, a sign signature and an int8 copy of its
 * vector (vector-codec.ts; ~900 bytes at 768-d, 90 MB at 100k) plus its status, tags and keyword
 * terms, and ranks from memory:
 *
 * - vectors: the signatures' Hamming distance picks a short list (`POOL`, or everything when the
 *   scope is that small — then the ranking is the cosine over all of them), the int8 cosine
 *   orders it;
 * - keywords: the sum over shared terms of their inverse document frequency within the scope
 *   (BM25's idf), a term in the name counting twice — the formula the SQL version used.
 *
 * Keeping in step: every change to a function or its vector gives it a new `revision` from one
 * sequence (schema.ts). Before each search, in the same read-only session that then fetches the
 * hits' records, the index compares the file's fingerprint (count, sum and max of revisions)
 * with its own; when they differ it reads only the rows with a revision above the highest it
 * holds, and — when functions were deleted — the list of ids. Other processes' saves are
 * therefore seen by the next search. The first search of a process loads everything (seconds at
 * 100k; logged).
 */
import type { FunctionStatus } from "../gate/gate-report.js";
import { allFunctionIds, libraryFingerprint, scanFunctionRows, scanVectors } from "../library/index-repository.js";
import type { IndexRow, LibraryFingerprint } from "../library/index-repository.js";
import type { DbSession } from "../storage/library-database.js";
import { TermPostings } from "./term-postings.js";
import { VectorCodec, cosineInt8, hammingDistance } from "./vector-codec.js";

/** Signature-picked candidates the int8 cosine re-orders (all of them when the scope is smaller). */
export const POOL = 2048;
/** The first pass over a large scope keeps this many for the full signature comparison. */
export const COARSE_POOL = POOL * 8;
/** Words (of 32 bits) the first pass compares. */
const COARSE_WORDS = 4;

const STATUS_CODES: Record<FunctionStatus, number> = { active: 1, broken: 2, unverified: 3 };

export interface IndexFilter {
  statuses?: readonly FunctionStatus[];
  /** Functions that have any of these tags. */
  tags?: readonly string[];
}

export interface Ranked {
  id: number;
  score: number;
}

export interface IndexRanking {
  byVector: Ranked[];
  byKeyword: Ranked[];
  /** Functions in scope with no vector of the index's model. */
  unembedded: number;
}

/**
 * How far a sync has read: `done` of `total` steps — each function's row, then each vector, so
 * `total` is twice the number of functions to read (approximately: a writer may add some meanwhile).
 */
export type SyncProgress = (done: number, total: number, message: string) => void;

/** Progress goes out every this many rows (and at the end of each phase). */
const PROGRESS_EVERY = 5_000;

export interface SyncReport {
  /** Rows read from the file (0 when the index was in step). */
  read: number;
  removed: number;
  full: boolean;
  ms: number;
}

/** What a persisted index holds (search-index.ts's arrays up to the slots used). */
export interface IndexSnapshot {
  model: string;
  dimension: number;
  /** Which library file it was taken from (index-persistence.ts: device and inode). */
  library: string;
  fingerprint: LibraryFingerprint;
  used: number;
  ids: Int32Array<ArrayBuffer>;
  revisions: Float64Array<ArrayBuffer>;
  statuses: Uint8Array<ArrayBuffer>;
  hasVector: Uint8Array<ArrayBuffer>;
  scales: Float32Array<ArrayBuffer>;
  norms: Float32Array<ArrayBuffer>;
  signatures: Uint32Array<ArrayBuffer>;
  vectors: Int8Array<ArrayBuffer>;
  /** Each slot's tags joined by TAG_SEPARATOR ("" for none). */
  tags: string[];
  terms: string[];
  postings: { offsets: Int32Array<ArrayBuffer>; slots: Int32Array<ArrayBuffer>; weights: Uint8Array<ArrayBuffer> };
}

/** Joins a slot's tags (tags are trimmed, lowercase words: they hold no NUL). */
export const TAG_SEPARATOR = "\u0000";

export class SearchIndex {
  readonly model: string;
  readonly dimension: number;
  private readonly codec: VectorCodec;
  private capacity = 0;
  private ids = new Int32Array(0);
  private revisions = new Float64Array(0);
  private statuses = new Uint8Array(0);
  private hasVector = new Uint8Array(0);
  private scales = new Float32Array(0);
  private norms = new Float32Array(0);
  private signatures = new Uint32Array(0);
  private vectors = new Int8Array(0);
  /**
   * Each slot's tags joined by TAG_SEPARATOR: one shared string per distinct set of tags, so a
   * restored index of 100k functions makes no small arrays (their garbage collection cost ~0.2 s
   * beside a 90 MB snapshot).
   */
  private tags: string[] = [];
  private readonly terms = new TermPostings();
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private used = 0;
  private readonly termIds = new Map<string, number>();
  private fingerprint: LibraryFingerprint | undefined;

  constructor(model: string, dimension: number) {
    this.model = model;
    this.dimension = dimension;
    // Dimension 0: an embedder that learns its dimension from its first answer (model-embedders.ts); keywords only until then.
    this.codec = new VectorCodec(Math.max(1, dimension));
  }

  /** Functions held. */
  get size(): number {
    return this.slotOf.size;
  }

  /**
   * Brings the index in step with the library seen by `session`; `onProgress` hears of a load of
   * more than one progress step (a first load at 100k functions takes seconds).
   */
  async sync(session: DbSession, onProgress?: SyncProgress): Promise<SyncReport> {
    const started = performance.now();
    const target = await libraryFingerprint(session);
    const held = this.fingerprint;
    if (held && held.count === target.count && held.sum === target.sum && held.max === target.max) {
      return { read: 0, removed: 0, full: false, ms: performance.now() - started };
    }
    // A lower max than we hold means another library took this path's place: start over.
    const full = held === undefined || target.max < held.max;
    if (full) this.clear();
    const expected = full ? target.count : Math.max(0, target.count - (held?.count ?? 0));
    const progress = onProgress && expected > PROGRESS_EVERY ? onProgress : undefined;
    let read = await this.load(
      session,
      full ? -1 : (held?.max ?? -1),
      progress && ((done, message) => progress(done, 2 * expected, message)),
    );
    let removed = 0;
    if (this.slotOf.size !== target.count) {
      const present = await allFunctionIds(session);
      for (const id of [...this.slotOf.keys()]) {
        if (!present.has(id)) {
          this.remove(id);
          removed += 1;
        }
      }
    }
    const now = this.ownFingerprint();
    if (now.count !== target.count || now.sum !== target.sum || now.max !== target.max) {
      // Cannot happen while revisions only grow; if it does, a full reload is always right.
      this.clear();
      read = await this.load(session, -1);
    }
    this.fingerprint = target;
    return { read, removed, full, ms: performance.now() - started };
  }

  /**
   * Reads the functions with a revision above `since`, then their vectors; returns how many.
   * `progress` counts rows, then vectors after them.
   */
  private async load(session: DbSession, since: number, progress?: (done: number, message: string) => void): Promise<number> {
    const changed: number[] = [];
    await scanFunctionRows(session, since, (row) => {
      this.upsert(row);
      changed.push(row.id);
      if (progress && changed.length % PROGRESS_EVERY === 0) progress(changed.length, `search index: ${changed.length} functions read`);
    });
    if (changed.length === 0) return 0;
    progress?.(changed.length, `search index: ${changed.length} functions read; reading their vectors`);
    let vectors = 0;
    await scanVectors(session, { model: this.model, dimension: this.dimension, ...(since < 0 ? {} : { ids: changed }) }, (id, vector) => {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) this.setVector(slot, vector);
      vectors += 1;
      if (progress && vectors % PROGRESS_EVERY === 0)
        progress(changed.length + vectors, `search index: ${vectors} of ${changed.length} vectors read`);
    });
    progress?.(2 * changed.length, `search index: loaded ${changed.length} functions`);
    return changed.length;
  }

  /** The vector and keyword rankings (best first, ties by id) of the functions in `filter`'s scope. */
  rank(query: { vector?: Float32Array; terms: readonly string[]; filter: IndexFilter; limit: number }): IndexRanking {
    const scope = this.scope(query.filter);
    const hasVector = this.hasVector;
    let unembedded = 0;
    for (let i = 0; i < scope.length; i++) if (hasVector[scope[i] as number] === 0) unembedded += 1;
    const byVector = query.vector && query.vector.length === this.dimension ? this.rankByVector(query.vector, scope, query.limit) : [];
    return { byVector, byKeyword: this.rankByKeyword(query.terms, scope, query.limit), unembedded };
  }

  /** The slots of the functions in the filter's scope. */
  private scope(filter: IndexFilter): Int32Array {
    const allowed = new Uint8Array(4);
    if (filter.statuses && filter.statuses.length > 0) for (const status of filter.statuses) allowed[STATUS_CODES[status]] = 1;
    else allowed.fill(1);
    const tags = filter.tags && filter.tags.length > 0 ? new Set(filter.tags) : undefined;
    const out = new Int32Array(this.used);
    let count = 0;
    for (let slot = 0; slot < this.used; slot++) {
      if (this.ids[slot] === -1 || allowed[this.statuses[slot] as number] !== 1) continue;
      if (tags && !(this.tags[slot] ?? "").split(TAG_SEPARATOR).some((tag) => tags.has(tag))) continue;
      out[count++] = slot;
    }
    return out.subarray(0, count);
  }

  private rankByVector(vector: Float32Array, scope: Int32Array, limit: number): Ranked[] {
    // Indexed loops over locals here and below: `for…of` over typed arrays and repeated `this.`
    // loads measured 2–8× slower at 100k functions (bench/solo-assets.mjs).
    const hasVector = this.hasVector;
    let pool: Int32Array = new Int32Array(scope.length);
    let withVector = 0;
    for (let i = 0; i < scope.length; i++) {
      const slot = scope[i] as number;
      if (hasVector[slot] === 1) pool[withVector++] = slot;
    }
    pool = pool.subarray(0, withVector);
    if (pool.length > POOL) pool = this.nearestBySignature(vector, pool);
    let squares = 0;
    for (const value of vector) squares += value * value;
    const queryNorm = Math.sqrt(squares);
    const best = new TopK(limit);
    const { ids, vectors, scales, norms, dimension } = this;
    for (let i = 0; i < pool.length; i++) {
      const slot = pool[i] as number;
      best.offer(
        ids[slot] as number,
        cosineInt8(vector, queryNorm, vectors, slot * dimension, scales[slot] as number, norms[slot] as number),
      );
    }
    return best.sorted();
  }

  /**
   * The `POOL` slots whose signatures differ least from the query's. Over a large scope a first
   * pass on the signatures' first 128 bits keeps `COARSE_POOL` slots for the full comparison (it
   * reads an eighth of the bits of every function).
   */
  private nearestBySignature(vector: Float32Array, slots: Int32Array): Int32Array {
    const query = new Uint32Array(this.codec.words);
    this.codec.signature(vector, query);
    const coarseWords = Math.min(COARSE_WORDS, this.codec.words);
    const coarse =
      slots.length > COARSE_POOL && coarseWords < this.codec.words ? this.nearest(query, slots, coarseWords, COARSE_POOL) : slots;
    return this.nearest(query, coarse, this.codec.words, POOL);
  }

  /** The `keep` slots nearest the query by the Hamming distance over the first `words` words (a counting selection). */
  private nearest(query: Uint32Array, slots: Int32Array, words: number, keep: number): Int32Array {
    const stride = this.codec.words;
    const signatures = this.signatures;
    const distances = new Uint16Array(slots.length);
    const histogram = new Uint32Array(words * 32 + 1);
    for (let i = 0; i < slots.length; i++) {
      const distance = hammingDistance(signatures, (slots[i] as number) * stride, query, words);
      distances[i] = distance;
      histogram[distance] = (histogram[distance] as number) + 1;
    }
    let threshold = 0;
    for (let seen = 0; threshold < histogram.length; threshold++) {
      seen += histogram[threshold] as number;
      if (seen >= keep) break;
    }
    const out = new Int32Array(Math.min(keep, slots.length));
    let count = 0;
    for (let i = 0; i < slots.length; i++) if ((distances[i] as number) < threshold) out[count++] = slots[i] as number;
    for (let i = 0; i < slots.length && count < out.length; i++) if (distances[i] === threshold) out[count++] = slots[i] as number;
    return out.subarray(0, count);
  }

  private rankByKeyword(queryTerms: readonly string[], scope: Int32Array, limit: number): Ranked[] {
    const termIds = [...new Set(queryTerms)].map((term) => this.termIds.get(term)).filter((id): id is number => id !== undefined);
    if (termIds.length === 0) return [];
    const inScope = new Uint8Array(this.used);
    for (let i = 0; i < scope.length; i++) inScope[scope[i] as number] = 1;
    const best = new TopK(limit);
    this.terms.score(termIds, inScope, scope.length, (slot, score) => best.offer(this.ids[slot] as number, score));
    return best.sorted();
  }

  /** Everything the index holds, for a persisted copy (index-snapshot.ts); undefined before the first sync. */
  snapshot(library = ""): IndexSnapshot | undefined {
    if (!this.fingerprint) return undefined;
    const used = this.used;
    const words = this.codec.words;
    const terms = [...this.termIds.keys()];
    return {
      model: this.model,
      dimension: this.dimension,
      library,
      fingerprint: { ...this.fingerprint },
      used,
      ids: this.ids.subarray(0, used),
      revisions: this.revisions.subarray(0, used),
      statuses: this.statuses.subarray(0, used),
      hasVector: this.hasVector.subarray(0, used),
      scales: this.scales.subarray(0, used),
      norms: this.norms.subarray(0, used),
      signatures: this.signatures.subarray(0, used * words),
      vectors: this.vectors.subarray(0, used * this.dimension),
      tags: Array.from({ length: used }, (_, slot) => this.tags[slot] ?? ""),
      terms,
      postings: this.terms.exportLive(terms.length),
    };
  }

  /**
   * Replaces what the index holds with a snapshot of the same model (as `snapshot` gave it, read
   * back from disk); the next `sync` then reads only what changed since the snapshot's fingerprint.
   */
  restore(snapshot: IndexSnapshot): void {
    if (snapshot.model !== this.model || snapshot.dimension !== this.dimension) {
      throw new Error(`index snapshot of ${snapshot.model}/${snapshot.dimension} given to ${this.model}/${this.dimension}`);
    }
    this.clear();
    this.termIds.clear();
    const used = snapshot.used;
    // The snapshot's arrays are taken as they are (no copy of ~90 MB at 100k): capacity is what
    // they hold, and the first function added beyond it grows them as usual.
    this.ids = snapshot.ids;
    this.revisions = snapshot.revisions;
    this.statuses = snapshot.statuses;
    this.hasVector = snapshot.hasVector;
    this.scales = snapshot.scales;
    this.norms = snapshot.norms;
    this.signatures = snapshot.signatures;
    this.vectors = snapshot.vectors;
    this.capacity = used;
    this.terms.ensureSlots(used);
    this.tags = snapshot.tags;
    this.used = used;
    for (let slot = 0; slot < used; slot++) {
      const id = this.ids[slot] as number;
      if (id === -1) this.free.push(slot);
      else this.slotOf.set(id, slot);
    }
    snapshot.terms.forEach((term, termId) => this.termIds.set(term, termId));
    this.terms.importLive(snapshot.postings.offsets, snapshot.postings.slots, snapshot.postings.weights);
    this.fingerprint = { ...snapshot.fingerprint };
  }

  private upsert(row: IndexRow): void {
    let slot = this.slotOf.get(row.id);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.used++;
      this.ensureCapacity(slot + 1);
      this.slotOf.set(row.id, slot);
    }
    this.ids[slot] = row.id;
    this.revisions[slot] = row.revision;
    this.statuses[slot] = STATUS_CODES[row.status] ?? 0;
    this.tags[slot] = this.internedTags(row.tags);
    const inName = new Set(row.nameTerms);
    const terms = [...new Set(row.searchTerms)];
    this.terms.set(
      slot,
      terms.map((term) => this.termId(term)),
      terms.map((term) => (inName.has(term) ? 2 : 1)),
    );
    this.hasVector[slot] = 0; // until scanVectors finds one
  }

  private setVector(slot: number, vector: Float32Array): void {
    this.codec.signature(vector, this.signatures, slot * this.codec.words);
    const { scale, norm } = this.codec.quantize(vector, this.vectors, slot * this.dimension);
    this.scales[slot] = scale;
    this.norms[slot] = norm;
    this.hasVector[slot] = 1;
  }

  private remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.ids[slot] = -1;
    this.hasVector[slot] = 0;
    this.tags[slot] = "";
    this.terms.clear(slot);
    this.free.push(slot);
  }

  private clear(): void {
    this.slotOf.clear();
    this.free.length = 0;
    this.used = 0;
    this.tags = [];
    this.terms.reset();
    this.fingerprint = undefined;
  }

  private readonly tagSets = new Map<string, string>();

  private internedTags(tags: readonly string[]): string {
    if (tags.length === 0) return "";
    const joined = tags.join(TAG_SEPARATOR);
    let shared = this.tagSets.get(joined);
    if (shared === undefined) {
      shared = joined;
      this.tagSets.set(joined, shared);
    }
    return shared;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termIds.size;
      this.termIds.set(term, id);
    }
    return id;
  }

  private ownFingerprint(): LibraryFingerprint {
    let sum = 0;
    let max = 0;
    for (const slot of this.slotOf.values()) {
      const revision = this.revisions[slot] ?? 0;
      sum += revision;
      max = Math.max(max, revision);
    }
    return { count: this.slotOf.size, sum, max };
  }

  private ensureCapacity(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, this.capacity * 2, 64);
    const grow = <T extends Int32Array | Float64Array | Uint8Array | Float32Array | Uint32Array | Int8Array>(
      old: T,
      make: (n: number) => T,
      per = 1,
    ): T => {
      const next = make(capacity * per);
      next.set(old as never);
      return next;
    };
    this.ids = grow(this.ids, (n) => new Int32Array(n).fill(-1));
    this.revisions = grow(this.revisions, (n) => new Float64Array(n));
    this.statuses = grow(this.statuses, (n) => new Uint8Array(n));
    this.hasVector = grow(this.hasVector, (n) => new Uint8Array(n));
    this.scales = grow(this.scales, (n) => new Float32Array(n));
    this.norms = grow(this.norms, (n) => new Float32Array(n));
    this.signatures = grow(this.signatures, (n) => new Uint32Array(n), this.codec.words);
    this.vectors = grow(this.vectors, (n) => new Int8Array(n), this.dimension);
    this.terms.ensureSlots(capacity);
    this.capacity = capacity;
  }
}

/** Keeps the `k` best offers by score, ties broken by the smaller id (as `ORDER BY score DESC, id`). */
class TopK {
  private readonly items: Ranked[] = [];
  constructor(private readonly k: number) {}

  offer(id: number, score: number): void {
    const items = this.items;
    if (items.length === this.k) {
      const worst = items[items.length - 1] as Ranked;
      if (score < worst.score || (score === worst.score && id > worst.id)) return;
      items.pop();
    }
    let at = items.length;
    while (at > 0 && before(id, score, items[at - 1] as Ranked)) at--;
    items.splice(at, 0, { id, score });
  }

  sorted(): Ranked[] {
    return this.items;
  }
}

function before(id: number, score: number, other: Ranked): boolean {
  return score > other.score || (score === other.score && id < other.id);
}
