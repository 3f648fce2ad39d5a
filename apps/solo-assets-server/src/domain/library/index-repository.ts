/**
 * The SQL the in-memory search index reads (search-index.ts): the library's fingerprint, the rows
 * written since a revision, their vectors of one embedding model, and the ids of all functions. Streamed chunk by chunk: a first load at 100k functions reads ~300 MB of vectors.
 */
import type { FunctionStatus } from "../gate/gate-report.js";
import { integerList } from "../storage/library-database.js";
import type { DbSession } from "../storage/library-database.js";

/** count, sum and max of `functions.revision`: equal fingerprints mean equal (id, revision) sets. */
export interface LibraryFingerprint {
  count: number;
  sum: number;
  max: number;
}

export async function libraryFingerprint(session: DbSession): Promise<LibraryFingerprint> {
  const rows = await session.all(
    `SELECT count(*) AS n, coalesce(sum(revision), 0)::DOUBLE AS s, coalesce(max(revision), 0) AS m FROM functions`,
  );
  const row = rows[0] ?? {};
  return { count: Number(row.n ?? 0), sum: Number(row.s ?? 0), max: Number(row.m ?? 0) };
}

export interface IndexRow {
  id: number;
  revision: number;
  status: FunctionStatus;
  tags: string[];
  searchTerms: string[];
  nameTerms: string[];
}

/** Every function with `revision > since` (without its vector: see scanVectors). */
export async function scanFunctionRows(session: DbSession, since: number, visit: (row: IndexRow) => void): Promise<void> {
  await session.scan(
    `SELECT id, revision, status, tags, search_terms, name_terms FROM functions WHERE revision > $since`,
    { since },
    (rows) => {
      for (let r = 0; r < rows.rowCount; r++) {
        visit({
          id: rows.number(0, r) ?? 0,
          revision: rows.number(1, r) ?? 0,
          status: (rows.string(2, r) ?? "unverified") as FunctionStatus,
          tags: rows.strings(3, r) ?? [],
          searchTerms: rows.strings(4, r) ?? [],
          nameTerms: rows.strings(5, r) ?? [],
        });
      }
    },
  );
}

/** Up to this many ids are looked up by id; more, and every vector of the model is read. */
const BY_ID_LIMIT = 1_000;

/**
 * The vectors of `model` at `dimension` — of the functions `ids` when given — one at a time,
 * copied into one scratch buffer (valid until the next call). A separate scan rather than a join:
 * DuckDB then reads the vector column only where the id filter matches (~20 ms for a few ids at
 * 100k, against ~0.5 s for the join), and a full load streams without a hash table.
 */
export async function scanVectors(
  session: DbSession,
  query: { model: string; dimension: number; ids?: readonly number[] },
  visit: (id: number, vector: Float32Array) => void,
): Promise<void> {
  const scratch = new Float32Array(query.dimension);
  const byId = query.ids !== undefined && query.ids.length <= BY_ID_LIMIT;
  const wanted = query.ids && !byId ? new Set(query.ids) : undefined;
  await session.scan(
    `SELECT function_id, vector FROM embeddings
     WHERE model_name = $model AND dimension = $dimension${byId ? " AND list_contains($ids, function_id)" : ""}`,
    { model: query.model, dimension: query.dimension, ...(byId ? { ids: integerList(query.ids ?? []) } : {}) },
    (rows) => {
      for (let r = 0; r < rows.rowCount; r++) {
        const id = rows.number(0, r) ?? 0;
        if (wanted && !wanted.has(id)) continue;
        if (rows.floats(1, r, scratch) === query.dimension) visit(id, scratch);
      }
    },
  );
}

/** The ids of all functions. */
export async function allFunctionIds(session: DbSession): Promise<Set<number>> {
  const ids = new Set<number>();
  await session.scan(`SELECT id FROM functions`, {}, (rows) => {
    for (let r = 0; r < rows.rowCount; r++) ids.add(rows.number(0, r) ?? 0);
  });
  return ids;
}
