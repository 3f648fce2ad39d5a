/**
 * The in-memory search index (src/domain/search/search-index.ts) against DuckDB itself as the
 * oracle, on real library files:
 *
 * - its vector ranking matches DuckDB's exact `list_cosine_similarity` on a clustered library
 *   larger than the signature pool (so the Hamming pre-selection is exercised), and its keyword
 *   ranking matches the idf formula computed in SQL;
 * - it stays in step with writes made through another library object (as another process
 *   would): new saves, re-embedded vectors and deletions are seen by the next sync, which reads
 *   only the changed rows;
 * - a library written with schema 1 (no revisions) is upgraded in place and searchable.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deleteFunction, storeEmbedding } from "../src/domain/library/function-repository.js";
import { COARSE_POOL, POOL, SearchIndex } from "../src/domain/search/search-index.js";
import { LibraryDatabase, floatList, varcharList } from "../src/domain/storage/library-database.js";
import { migrateLibrarySchema } from "../src/domain/storage/schema.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { connectSolo, tempLibrary, testServices } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const DIMENSION = 768;
const MODEL = "test-model";
const WORDS = "parse format date time json csv path file hash slug split merge sort filter count retry cache token email url".split(" ");

let library: TempLibrary;
beforeEach(() => {
  library = tempLibrary();
});
afterEach(() => library.remove());

function openDb(path: string): LibraryDatabase {
  return new LibraryDatabase(path, { lockTimeoutMs: 10_000, migrate: migrateLibrarySchema });
}

/**
 * `n` functions in 40 clusters (a cluster centre plus noise, as texts on one topic embed), each
 * with 3 words of a small vocabulary as its keyword terms, written with SQL in one transaction.
 */
async function writeClusteredLibrary(db: LibraryDatabase, n: number): Promise<void> {
  await db.write(async (session) => {
    await session.run(
      `INSERT INTO functions (name, version, status, code, description, signature, docstring, tags, dependencies,
         test_cases, metadata, search_terms, name_terms, created_at, updated_at)
       SELECT 'f_' || i, 1, CASE WHEN i % 10 = 0 THEN 'broken' ELSE 'active' END, 'def f(): pass', 'generated', 'f()', '',
              CASE WHEN i % 3 = 0 THEN ['util'] ELSE ['text'] END, [], '[]', '{}',
              [$words[(1 + hash(i, 1) % 20)::BIGINT], $words[(1 + hash(i, 2) % 20)::BIGINT], $words[(1 + hash(i, 3) % 20)::BIGINT]],
              [$words[(1 + hash(i, 1) % 20)::BIGINT]], '2026-01-01', '2026-01-01'
       FROM range($n) t(i)`,
      { n, words: varcharList(WORDS) },
    );
    await session.run(`SELECT setseed(0.25)`);
    await session.run(
      `INSERT INTO embeddings (function_id, model_name, dimension, vector, text_hash, created_at)
       SELECT id, $model, $dimension,
              list_transform(range($dimension), lambda j: ((hash(id % 40, j) % 2000)::BIGINT / 1000.0 - 1 + (random() - 0.5))::FLOAT),
              'x', '2026-01-01'
       FROM functions`,
      { model: MODEL, dimension: DIMENSION },
    );
  });
}

/** A query near cluster `c`: its centre plus fresh noise. */
async function queryNear(db: LibraryDatabase, c: number): Promise<Float32Array> {
  const rows = await db.read(async (session) => {
    await session.run(`SELECT setseed($seed)`, { seed: c / 100 });
    return session.all(
      `SELECT list_transform(range($dimension), lambda j: ((hash($c, j) % 2000)::BIGINT / 1000.0 - 1 + (random() - 0.5) * 0.8)::FLOAT) AS v`,
      { c, dimension: DIMENSION },
    );
  });
  return Float32Array.from(rows[0]?.v as number[]);
}

describe("search index", () => {
  it("ranks vectors like DuckDB's exact cosine, beyond the signature pool", async () => {
    const db = openDb(library.dbPath);
    const n = COARSE_POOL + POOL * 4;
    await writeClusteredLibrary(db, n);
    const index = new SearchIndex(MODEL, DIMENSION);
    const reports: { done: number; total: number; message: string }[] = [];
    const report = await db.read((session) => index.sync(session, (done, total, message) => reports.push({ done, total, message })));
    expect(report).toMatchObject({ read: n, full: true });
    // A load this long reports progress: rows, then vectors, every 5,000, up to 2n of 2n.
    expect(reports.length).toBeGreaterThanOrEqual(Math.floor((2 * n) / 5_000));
    expect(reports.every((r, i) => r.total === 2 * n && (i === 0 || r.done > (reports[i - 1]?.done ?? 0)))).toBe(true);
    expect(reports.at(-1)).toMatchObject({ done: 2 * n, message: `search index: loaded ${n} functions` });
    expect(reports.map((r) => r.message)).toContain(`search index: 10000 of ${n} vectors read`);
    // In step, nothing to report.
    const quiet: number[] = [];
    await db.read((session) => index.sync(session, (done) => quiet.push(done)));
    expect(quiet).toEqual([]);
    const filter = { statuses: ["active" as const, "unverified" as const] };
    let overlap = 0;
    let compared = 0;
    for (let c = 0; c < 12; c++) {
      const vector = await queryNear(db, c);
      const exact = await db.read((session) =>
        session.all(
          `SELECT f.id, list_cosine_similarity(e.vector, $v) AS score FROM embeddings e JOIN functions f ON f.id = e.function_id
           WHERE f.status IN ('active', 'unverified') ORDER BY score DESC, f.id LIMIT 20`,
          { v: floatList(vector) },
        ),
      );
      const ranked = index.rank({ vector, terms: [], filter, limit: 20 }).byVector;
      expect(ranked).toHaveLength(20);
      const exactIds = new Set(exact.map((row) => Number(row.id)));
      overlap += ranked.filter((r) => exactIds.has(r.id)).length;
      compared += 20;
      // The reported similarity is the cosine to within the int8 copy's error.
      const exactScore = new Map(exact.map((row) => [Number(row.id), Number(row.score)]));
      for (const r of ranked) if (exactScore.has(r.id)) expect(Math.abs(r.score - (exactScore.get(r.id) ?? 0))).toBeLessThan(0.02);
    }
    // Within a cluster many cosines are near-ties, so the int8 copy may swap a few at the edge of the top 20.
    expect(overlap / compared).toBeGreaterThanOrEqual(0.9);
  });

  it("sends progress notifications from search_functions while a fresh server loads a large index", async () => {
    const n = 6_000;
    await writeClusteredLibrary(openDb(library.dbPath), n);
    const solo = await connectSolo(library.dbPath);
    try {
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const first = await solo.client.callTool(
        { name: "search_functions", arguments: { query: "parse json" } },
        {
          timeout: 60_000,
          onprogress: (p) => progress.push(p),
        },
      );
      expect(first.isError).not.toBe(true);
      expect(progress.map((p) => p.message)).toEqual(
        expect.arrayContaining(["search index: 5000 functions read", `search index: loaded ${n} functions`]),
      );
      expect(progress.at(-1)).toMatchObject({ progress: 2 * n, total: 2 * n });
      // The index is loaded now: the next search has nothing to report.
      const later: unknown[] = [];
      await solo.client.callTool({ name: "search_functions", arguments: { query: "format dates" } }, { onprogress: (p) => later.push(p) });
      expect(later).toEqual([]);
    } finally {
      await solo.close();
    }
  });

  it("ranks keywords by the idf formula computed in SQL, and filters by status and tag", async () => {
    const db = openDb(library.dbPath);
    await writeClusteredLibrary(db, 500);
    const index = new SearchIndex(MODEL, DIMENSION);
    await db.read((session) => index.sync(session));
    const terms = ["parse", "date", "nothing-like-this"];
    const expected = await db.read((session) =>
      session.all(
        `WITH q AS (SELECT DISTINCT unnest($terms) AS term),
         scoped AS (SELECT id, search_terms, name_terms FROM functions WHERE status = 'active' AND list_has_any(tags, ['util'])),
         total AS (SELECT count(*) AS n FROM scoped),
         matches AS (SELECT s.id, q.term, list_contains(s.name_terms, q.term) AS in_name FROM scoped s JOIN q ON list_contains(s.search_terms, q.term)),
         df AS (SELECT term, count(*) AS df FROM matches GROUP BY term)
         SELECT m.id, sum(ln(1 + (total.n - df.df + 0.5) / (df.df + 0.5)) * CASE WHEN m.in_name THEN 2 ELSE 1 END) AS score
         FROM matches m JOIN df USING (term) CROSS JOIN total GROUP BY m.id ORDER BY score DESC, m.id LIMIT 30`,
        { terms: varcharList(terms) },
      ),
    );
    const ranked = index.rank({ terms, filter: { statuses: ["active"], tags: ["util"] }, limit: 30 }).byKeyword;
    expect(expected.length).toBeGreaterThan(5);
    expect(ranked.map((r) => r.id)).toEqual(expected.map((row) => Number(row.id)));
    ranked.forEach((r, i) => expect(r.score).toBeCloseTo(Number(expected[i]?.score), 9));
  });

  it("sees other writers' saves, new vectors and deletions, reading only what changed", async () => {
    const writer = testServices(library.dbPath);
    const reader = testServices(library.dbPath);
    try {
      for (const name of ["slugify", "parse_date", "chunk_list"]) {
        await commitUnchecked(writer, { name, code: `def ${name}(x):\n    return x\n`, description: `${name.replace("_", " ")} helper` });
      }
      const first = await reader.library.search({ query: "slugify a title", limit: 5 });
      expect(first.hits.map((h) => h.function.name)).toContain("slugify");

      await commitUnchecked(writer, {
        name: "flatten_dict",
        code: "def flatten_dict(d):\n    return d\n",
        description: "flatten a nested dictionary into dotted keys",
      });
      await writer.library.delete("chunk_list");
      const after = await reader.library.search({ query: "flatten nested dictionary", limit: 5 });
      expect(after.hits[0]?.function.name).toBe("flatten_dict");
      expect(after.hits.map((h) => h.function.name)).not.toContain("chunk_list");

      // A sync after one change reads that one row, not the library.
      const db = openDb(library.dbPath);
      const index = new SearchIndex(writer.embedder.model, writer.embedder.dimension);
      expect((await db.read((session) => index.sync(session))).read).toBe(3);
      const slug = await writer.library.get("slugify", undefined);
      const id = slug.current?.id ?? -1;
      await db.write((session) =>
        storeEmbedding(session, {
          functionId: id,
          model: writer.embedder.model,
          vector: new Float32Array(writer.embedder.dimension).fill(0.5),
          textHash: "t",
          at: "now",
        }),
      );
      expect(await db.read((session) => index.sync(session))).toMatchObject({ read: 1, removed: 0, full: false });
      await db.write((session) => deleteFunction(session, "parse_date"));
      expect(await db.read((session) => index.sync(session))).toMatchObject({ read: 0, removed: 1, full: false });
      expect(index.size).toBe(2);
      expect(await db.read((session) => index.sync(session))).toMatchObject({ read: 0, removed: 0 });
      const probe = new Float32Array(writer.embedder.dimension).fill(0.5);
      expect(index.rank({ vector: probe, terms: [], filter: {}, limit: 1 }).byVector[0]).toMatchObject({ id });
    } finally {
      await writer.dispose();
      await reader.dispose();
    }
  });

  it("upgrades a schema-1 library in place and searches it", async () => {
    const db = openDb(library.dbPath);
    // Schema 1: the same tables without functions.revision.
    await db.write(async (session) => {
      await session.run(`ALTER TABLE functions DROP COLUMN revision`);
      await session.run(`UPDATE library_info SET value = '1' WHERE key = 'schema_version'`);
      await session.run(
        `INSERT INTO functions (name, version, status, code, description, signature, docstring, tags, dependencies, test_cases,
           metadata, search_terms, name_terms, created_at, updated_at)
         VALUES ('old_one', 1, 'active', 'def old_one(): pass', 'an old function', 'old_one()', '', [], [], '[]', '{}', ['old'], ['old'], 'then', 'then')`,
      );
    });
    const services = testServices(library.dbPath);
    try {
      const found = await services.library.search({ query: "old", limit: 5 });
      expect(found.hits.map((h) => h.function.name)).toEqual(["old_one"]);
      const info = await services.library.db.read((session) =>
        session.all(
          `SELECT (SELECT value FROM library_info WHERE key = 'schema_version') AS v, (SELECT min(revision) FROM functions) AS r`,
        ),
      );
      expect(info[0]).toMatchObject({ v: "2" });
      expect(Number(info[0]?.r)).toBeGreaterThan(0);
    } finally {
      await services.dispose();
    }
  });
});
