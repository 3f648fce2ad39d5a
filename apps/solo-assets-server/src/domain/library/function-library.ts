/**
 * The function library: save (quality gate → embedding → one transaction), search (vector and
 * keyword rankings fused), fetch, list, history, delete and reindex. No MCP types here; the
 * tools, the CLI and the dashboard all call this.
 *
 * A save does its slow work — the gate, the embedding — before it touches the database, then
 * writes the version row, the function row and the vector in one short transaction: other
 * processes wait milliseconds, not seconds, and a crash at any point leaves either the whole
 * save or none of it.
 */
import { hostname } from "node:os";
import { ToolError, silentLogger, toToolError } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import type { Embedder } from "@local-mcp/core/embeddings";
import type { FunctionStatus, GateReport } from "../gate/gate-report.js";
import type { GateContext, QualityGate } from "../gate/quality-gate.js";
import { normaliseDependencies } from "../python/dependencies.js";
import { FUNCTION_NAME, findTopLevelFunction, parameterNames } from "../python/function-source.js";
import { expandQueryTerms } from "../search/code-thesaurus.js";
import { embeddingText, splitIdentifier, textHash } from "../search/embedding-text.js";
import { keywordTerms } from "../search/keyword-terms.js";
import { reciprocalRankFusion } from "../search/rank-fusion.js";
import type { IndexPersistence } from "../search/index-persistence.js";
import { SearchIndex, type SyncProgress } from "../search/search-index.js";
import type { LibraryDatabase } from "../storage/library-database.js";
import { backfillFingerprint, recordLinks, removeLinks, resolveClosure, unfingerprinted, usersOf } from "./dependency-graph.js";
import type { FunctionMetadata, FunctionRecord, FunctionSummaryRecord, TestCase, VersionRecord } from "./function-record.js";
import {
  deleteFunction,
  embeddingStates,
  findFunction,
  findVersion,
  functionExists,
  functionSummariesByIds,
  libraryCounts,
  listFunctions,
  listVersions,
  storeEmbedding,
  storeSave,
} from "./function-repository.js";
import type { FunctionFilter, LibraryCounts } from "./function-repository.js";
import type { SaveChecker } from "./save-checks.js";

export interface SaveRequest {
  name: string;
  code: string;
  description: string;
  tags: readonly string[];
  dependencies: readonly string[];
  testCases: readonly TestCase[];
  skipTests: boolean;
}

export interface SaveOutcome {
  function: FunctionRecord;
  gate: GateReport;
  submittedCode: string;
}

export interface SearchRequest {
  query: string;
  limit: number;
  tags?: readonly string[];
  /** Broken functions are left out unless asked for. */
  includeBroken?: boolean;
}

export interface SearchHit {
  function: FunctionSummaryRecord;
  /** Fused score (reciprocal rank fusion). */
  score: number;
  similarity?: number;
  keywordScore?: number;
  vectorRank?: number;
  keywordRank?: number;
}

export interface SearchOutcome {
  hits: SearchHit[];
  embedding: { model: string; dimension: number; error?: string };
  /** Functions in scope with no vector of the current model (found by keywords only). */
  unembedded: number;
  /** What ranked the hits: the vector model and keywords, or keywords only. */
  rankedBy: string;
  /** Candidates left out as below the minimum relevance (no shared keyword, similarity under the minimum). */
  belowMinimum: number;
}

export interface ReindexOutcome {
  model: string;
  dimension: number;
  embedded: number;
  upToDate: number;
  /** Functions given the fingerprint the duplicate check compares (those saved before it existed). */
  fingerprinted: number;
}

export interface FunctionLibraryOptions {
  db: LibraryDatabase;
  gate: QualityGate;
  embedder: Embedder;
  /**
   * The minimum relevance: a candidate that shares no keyword with the query and whose cosine
   * similarity is below this is not returned. 0 returns every candidate.
   */
  minSimilarity?: number;
  /** The search index persisted beside the library (index-persistence.ts); in memory only when absent. */
  persistence?: IndexPersistence;
  logger?: Logger;
  /** The pre-gate checks: secrets, composition, duplicates (save-checks.ts); none when absent. */
  checks?: SaveChecker;
  /**
   * The normalised fingerprints of sources (undefined where one does not parse), for `reindex` to
   * give the duplicate check the functions saved before it existed; none when absent.
   */
  fingerprints?: (sources: readonly string[], signal?: AbortSignal) => Promise<(string | undefined)[]>;
}

/** Candidates taken from each ranking before fusion. */
const CANDIDATES = 50;
const REINDEX_BATCH = 32;
/** Sources per Python process when reindex fingerprints (one process start each, ~70 ms). */
const FINGERPRINT_BATCH = 256;

function notFound(name: string, version?: number): ToolError {
  return new ToolError(
    "NOT_FOUND",
    version === undefined ? `No function named '${name}'.` : `Function '${name}' has no version ${version}.`,
    {
      suggestion:
        version === undefined
          ? "Search with search_functions or list them with list_functions."
          : "List the versions with get_function_history.",
    },
  );
}

function checkName(name: string): void {
  if (!FUNCTION_NAME.test(name)) {
    throw new ToolError("INVALID_INPUT", `'${name}' is not a Python function name.`, {
      suggestion: "Use the name of the function as written after `def` (letters, digits, underscores).",
      details: { fields: [{ field: "name", message: "not a Python identifier" }] },
    });
  }
}

function normaliseTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag.length > 0))].sort();
}

export class FunctionLibrary {
  readonly db: LibraryDatabase;
  readonly embedder: Embedder;
  private readonly gate: QualityGate;
  private readonly logger: Logger;
  private readonly minSimilarity: number;
  private readonly persistence: IndexPersistence | undefined;
  private readonly checks: SaveChecker | undefined;
  private readonly fingerprints: FunctionLibraryOptions["fingerprints"];
  /** The in-memory ranking, for the embedder's model; built by the first search. */
  private index: SearchIndex | undefined;

  constructor(options: FunctionLibraryOptions) {
    this.db = options.db;
    this.gate = options.gate;
    this.embedder = options.embedder;
    this.logger = options.logger ?? silentLogger;
    this.minSimilarity = options.minSimilarity ?? 0;
    this.persistence = options.persistence;
    this.checks = options.checks;
    this.fingerprints = options.fingerprints;
  }

  async save(request: SaveRequest, context: GateContext): Promise<SaveOutcome> {
    const checked = this.check(request);
    const source = findTopLevelFunction(request.code, checked.name);
    if (this.checks) context.progress?.("checks: secrets, copies, solo_lib imports");
    const checks = await this.checks?.(
      {
        name: checked.name,
        code: request.code,
        dependencies: checked.dependencies,
        embeddingText: embeddingText({ ...checked, signature: source?.signature ?? "", docstring: source?.docstring ?? "" }),
      },
      context.signal,
    );
    const gate = await this.gate.run(
      {
        name: checked.name,
        description: checked.description,
        code: request.code,
        dependencies: checked.dependencies,
        testCases: request.testCases,
        skipTests: request.skipTests,
        ...(checks ? { checks } : {}),
      },
      context,
    );
    return this.commit(request, gate, context);
  }

  /**
   * Stores a save whose gate report is already known (what `save` does after the gate; also
   * for importing functions checked elsewhere): embeds it, then writes the version, the
   * function row and the vector in one transaction.
   */
  async commit(request: SaveRequest, gate: GateReport, context: GateContext): Promise<SaveOutcome> {
    const { name, description, dependencies, tags } = this.check(request);
    const source = findTopLevelFunction(gate.code, name) ?? findTopLevelFunction(request.code, name);
    const signature = source?.signature ?? `def ${name}(...)`;
    const docstring = source?.docstring ?? "";
    const text = embeddingText({ name, description, signature, docstring, tags });

    context.progress?.(`embedding with ${this.embedder.model}`);
    let vector: Float32Array | undefined;
    let embedding: FunctionMetadata["embedding"];
    try {
      [vector] = await this.embedder.embed([text], { task: "document", signal: context.signal });
      embedding = { model: this.embedder.model, dimension: this.embedder.dimension };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      // The save still counts: keyword search finds it, and `solo-assets reindex` adds the vector later.
      const message = toToolError(error).message;
      this.logger.warn("embedding failed; saving without a vector", { name, error: message });
      embedding = { error: message };
    }
    const at = new Date().toISOString();
    const metadata: FunctionMetadata = { gate, embedding, saved_by: { pid: process.pid, host: hostname() } };
    const row = {
      name,
      status: gate.status,
      code: gate.code,
      submittedCode: request.code,
      description,
      signature,
      docstring,
      tags,
      dependencies,
      testCases: [...request.testCases],
      metadata,
      // Keywords come from the words, not from type names ("str", "list") that every signature repeats.
      searchTerms: keywordTerms(
        [splitIdentifier(name), description, docstring, tags.join(" "), parameterNames(signature).map(splitIdentifier).join(" ")].join(
          "\n",
        ),
      ),
      nameTerms: keywordTerms(splitIdentifier(name)),
      at,
    };
    context.progress?.("storing");
    const stored = await this.db.write(async (session) => {
      // The imported functions must still be there, active, when the save lands.
      if (gate.library) await resolveClosure(session, gate.library.imports, { activeOnly: true, saving: name });
      const saved = await storeSave(session, row);
      await recordLinks(session, name, gate.library?.imports ?? [], gate.fingerprint);
      if (vector) await storeEmbedding(session, { functionId: saved.id, model: this.embedder.model, vector, textHash: textHash(text), at });
      return findFunction(session, name);
    }, context.signal);
    if (!stored) throw new ToolError("INTERNAL", `The save of '${name}' was committed but cannot be read back.`);
    return { function: stored, gate, submittedCode: request.code };
  }

  /** Validates and normalises a save request (INVALID_INPUT naming the field). */
  private check(request: SaveRequest): { name: string; description: string; dependencies: string[]; tags: string[] } {
    checkName(request.name);
    if (!findTopLevelFunction(request.code, request.name)) {
      throw new ToolError("INVALID_INPUT", `The code defines no top-level function named '${request.name}'.`, {
        suggestion: `Pass the complete source with \`def ${request.name}(...)\` at the start of a line, or fix 'name'.`,
        details: { fields: [{ field: "code", message: `no top-level def ${request.name}` }] },
      });
    }
    return {
      name: request.name,
      description: request.description.trim(),
      dependencies: normaliseDependencies(request.dependencies),
      tags: normaliseTags(request.tags),
    };
  }

  async get(
    name: string,
    version: number | undefined,
    signal?: AbortSignal,
  ): Promise<{ current?: FunctionRecord; version?: VersionRecord }> {
    checkName(name);
    return this.db.read(async (session) => {
      const current = await findFunction(session, name);
      if (version === undefined) {
        if (!current) throw notFound(name);
        return { current };
      }
      const stored = await findVersion(session, name, version);
      if (!stored) throw notFound(name, version);
      return { ...(current ? { current } : {}), version: stored };
    }, signal);
  }

  async history(name: string, signal?: AbortSignal): Promise<{ current?: FunctionRecord; versions: VersionRecord[] }> {
    checkName(name);
    return this.db.read(async (session) => {
      const versions = await listVersions(session, name);
      if (versions.length === 0) throw notFound(name);
      const current = await findFunction(session, name);
      return { ...(current ? { current } : {}), versions };
    }, signal);
  }

  async list(filter: FunctionFilter, page: { limit: number; offset: number }, signal?: AbortSignal) {
    return this.db.read((session) => listFunctions(session, filter, page), signal);
  }

  async delete(name: string, signal?: AbortSignal): Promise<{ name: string; versionsKept: number }> {
    checkName(name);
    const deleted = await this.db.write(async (session) => {
      const users = await usersOf(session, name);
      if (users.length > 0) {
        throw new ToolError("CONFLICT", `'${name}' is imported by ${users.map((u) => `'${u}'`).join(", ")}, so it was not deleted.`, {
          suggestion: "Delete those functions first, or save them again without `from solo_lib import " + name + "`.",
          details: { users },
        });
      }
      await removeLinks(session, name);
      return deleteFunction(session, name);
    }, signal);
    if (!deleted) throw notFound(name);
    return { name, versionsKept: deleted.versions };
  }

  async counts(signal?: AbortSignal): Promise<LibraryCounts> {
    return this.db.read((session) => libraryCounts(session), signal);
  }

  /** `progress` hears of a long index load (the first search of a process on a large library). */
  async search(request: SearchRequest, signal?: AbortSignal, progress?: SyncProgress): Promise<SearchOutcome> {
    const query = request.query.trim();
    if (query.length === 0) {
      throw new ToolError("INVALID_INPUT", "The query is empty.", { details: { fields: [{ field: "query", message: "empty" }] } });
    }
    const statuses: FunctionStatus[] | undefined = request.includeBroken ? undefined : ["active", "unverified"];
    const filter: FunctionFilter = {
      ...(statuses ? { statuses } : {}),
      ...(request.tags?.length ? { tags: normaliseTags(request.tags) } : {}),
    };
    const model = this.embedder.model;
    let queryVector: Float32Array | undefined;
    let embedError: string | undefined;
    try {
      [queryVector] = await this.embedder.embed([query], { task: "query", signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      embedError = toToolError(error).message;
      this.logger.warn("query embedding failed; keyword search only", { error: embedError });
    }
    const terms = expandQueryTerms(query);
    const candidates = Math.max(CANDIDATES, request.limit * 4);
    const index = this.searchIndex();
    // The persisted index is read while the library file is attached (DuckDB's first load).
    const restoring = this.persistence?.restore(index);
    return this.db.read(async (session) => {
      await restoring;
      // A long load is also told on stderr, at most every 2 s (the client hears every step).
      let logged = performance.now();
      const synced = await index.sync(session, (done, total, message) => {
        progress?.(done, total, message);
        if (performance.now() - logged < 2_000) return;
        logged = performance.now();
        this.logger.info(message, { done, total });
      });
      this.persistence?.afterSync(index, synced);
      if (synced.full || synced.ms > 1_000) {
        this.logger.info("search index loaded", {
          functions: index.size,
          read: synced.read,
          removed: synced.removed,
          ms: Math.round(synced.ms),
        });
      }
      const ranking = index.rank({ ...(queryVector ? { vector: queryVector } : {}), terms, filter, limit: candidates });
      const { byVector, byKeyword } = ranking;
      const similarity = new Map(byVector.map((c) => [c.id, c.score]));
      const keyword = new Map(byKeyword.map((c) => [c.id, c.score]));
      const all = reciprocalRankFusion([byVector.map((c) => c.id), byKeyword.map((c) => c.id)]);
      const relevant = all.filter((item) => (keyword.get(item.id) ?? 0) > 0 || (similarity.get(item.id) ?? -1) >= this.minSimilarity);
      const fused = relevant.slice(0, request.limit);
      const records = await functionSummariesByIds(
        session,
        fused.map((f) => f.id),
      );
      const hits: SearchHit[] = [];
      for (const item of fused) {
        const record = records.get(item.id);
        if (!record) continue;
        const [vectorRank, keywordRank] = item.ranks;
        hits.push({
          function: record,
          score: item.score,
          ...(similarity.has(item.id) ? { similarity: similarity.get(item.id) } : {}),
          ...(keyword.has(item.id) ? { keywordScore: keyword.get(item.id) } : {}),
          ...(vectorRank !== undefined ? { vectorRank } : {}),
          ...(keywordRank !== undefined ? { keywordRank } : {}),
        });
      }
      return {
        hits,
        embedding: { model, dimension: this.embedder.dimension, ...(embedError ? { error: embedError } : {}) },
        unembedded: ranking.unembedded,
        rankedBy: queryVector ? `${model} vectors + keywords (reciprocal rank fusion)` : "keywords only",
        belowMinimum: all.length - relevant.length,
      };
    }, signal);
  }

  /**
   * The `k` stored functions whose vectors (of the current embedding model) are nearest to a text
   * or a vector, with their cosine similarity, best first — e.g. a save's near-duplicate check.
   * Every status is in scope; `exclude` leaves one name out (the function being saved). Empty when
   * the text cannot be embedded or nothing has a vector of the current model.
   */
  async nearestFunctions(
    query: string | Float32Array,
    k: number,
    options: { signal?: AbortSignal; exclude?: string } = {},
  ): Promise<{ name: string; similarity: number }[]> {
    let vector: Float32Array | undefined;
    if (typeof query === "string") {
      try {
        [vector] = await this.embedder.embed([query], { task: "document", signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        this.logger.warn("embedding failed; no nearest functions", { error: toToolError(error).message });
        return [];
      }
    } else vector = query;
    if (!vector || vector.length !== this.embedder.dimension || k <= 0) return [];
    const index = this.searchIndex();
    await this.persistence?.restore(index);
    return this.db.read(async (session) => {
      this.persistence?.afterSync(index, await index.sync(session));
      const ranking = index.rank({ vector, terms: [], filter: {}, limit: k + 1 });
      const records = await functionSummariesByIds(
        session,
        ranking.byVector.map((r) => r.id),
      );
      const out: { name: string; similarity: number }[] = [];
      for (const ranked of ranking.byVector) {
        const record = records.get(ranked.id);
        if (!record || record.name === options.exclude) continue;
        out.push({ name: record.name, similarity: ranked.score });
      }
      return out.slice(0, k);
    }, options.signal);
  }

  /** The index for the embedder's current model (a new one when the model changed). */
  private searchIndex(): SearchIndex {
    if (this.index?.model !== this.embedder.model || this.index.dimension !== this.embedder.dimension) {
      this.index = new SearchIndex(this.embedder.model, this.embedder.dimension);
    }
    return this.index;
  }

  /**
   * Gives every function a vector of the current embedding model: those without one, or whose
   * text changed (or all, with `all`). Vectors of other models stay, so switching back is free.
   */
  async reindex(
    options: { all?: boolean; signal?: AbortSignal; progress?: (done: number, total: number) => void } = {},
  ): Promise<ReindexOutcome> {
    // A model that learns its dimension from its first answer (model-embedders.ts) is asked once first.
    if (this.embedder.dimension === 0) await this.embedder.embed(["dimension probe"], { task: "document", signal: options.signal });
    const model = this.embedder.model;
    const dimension = this.embedder.dimension;
    const states = await this.db.read((session) => embeddingStates(session, model, dimension), options.signal);
    const todo = states
      .map((state) => ({ state, text: embeddingText(state) }))
      .filter(({ state, text }) => options.all === true || state.storedHash !== textHash(text));
    const unprinted = this.fingerprints ? await this.db.read((session) => unfingerprinted(session), options.signal) : [];
    const total = todo.length + unprinted.length;
    let done = 0;
    for (let start = 0; start < todo.length; start += REINDEX_BATCH) {
      const batch = todo.slice(start, start + REINDEX_BATCH);
      const vectors = await this.embedder.embed(
        batch.map((item) => item.text),
        { task: "document", signal: options.signal },
      );
      const at = new Date().toISOString();
      await this.db.write(async (session) => {
        for (const [i, item] of batch.entries()) {
          const vector = vectors[i];
          if (!vector) continue;
          // The function may have been deleted meanwhile: only write vectors of existing rows.
          if (!(await functionExists(session, item.state.id))) continue;
          await storeEmbedding(session, { functionId: item.state.id, model, vector, textHash: textHash(item.text), at });
        }
      }, options.signal);
      done += batch.length;
      options.progress?.(done, total);
    }
    let fingerprinted = 0;
    for (let start = 0; start < unprinted.length && this.fingerprints; start += FINGERPRINT_BATCH) {
      const batch = unprinted.slice(start, start + FINGERPRINT_BATCH);
      let prints: (string | undefined)[];
      try {
        prints = await this.fingerprints(
          batch.map((item) => item.code),
          options.signal,
        );
      } catch (error) {
        // The vectors are written; without Python the duplicate check simply has less to compare.
        if (options.signal?.aborted) throw error;
        this.logger.warn(`reindex: could not fingerprint older functions: ${(error as Error).message}`);
        break;
      }
      fingerprinted += await this.db.write(async (session) => {
        let stored = 0;
        for (const [i, item] of batch.entries()) {
          const print = prints[i];
          if (print && (await backfillFingerprint(session, item.name, item.code, print))) stored += 1;
        }
        return stored;
      }, options.signal);
      done += batch.length;
      options.progress?.(done, total);
    }
    return { model, dimension, embedded: todo.length, upToDate: states.length - todo.length, fingerprinted };
  }
}
