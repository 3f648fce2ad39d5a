/**
 * The SQL the in-memory search index reads (search-index.ts): the library's fingerprint, the rows
 * written since a revision with their vector of one embedding model, and the ids of all
 * functions. Streamed chunk by chunk: a first load at 100k functions reads ~300 MB of vectors.
 */
import type { FunctionStatus } from "../gate/gate-report.js";
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
  /** The function's vector of the model, in `scratch` (valid until the next row); undefined when it has none. */
  vector: Float32Array | undefined;
}

/**
 * Every function with `revision > since`, with its vector of `model` at `dimension`, one row at
 * a time (the vector is copied into one scratch buffer, so nothing per row outlives the call).
 */
export async function scanIndexRows(
  session: DbSession,
  query: { since: number; model: string; dimension: number },
  visit: (row: IndexRow) => void,
): Promise<void> {
  const scratch = new Float32Array(query.dimension);
  await session.scan(
    `SELECT f.id, f.revision, f.status, f.tags, f.search_terms, f.name_terms, e.vector
     FROM functions f
     LEFT JOIN embeddings e ON e.function_id = f.id AND e.model_name = $model AND e.dimension = $dimension
     WHERE f.revision > $since`,
    { since: query.since, model: query.model, dimension: query.dimension },
    (rows) => {
      for (let r = 0; r < rows.rowCount; r++) {
        const length = rows.floats(6, r, scratch);
        visit({
          id: rows.number(0, r) ?? 0,
          revision: rows.number(1, r) ?? 0,
          status: (rows.string(2, r) ?? "unverified") as FunctionStatus,
          tags: rows.strings(3, r) ?? [],
          searchTerms: rows.strings(4, r) ?? [],
          nameTerms: rows.strings(5, r) ?? [],
          vector: length === query.dimension ? scratch : undefined,
        });
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
