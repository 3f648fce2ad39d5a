/**
 * The library's tables (from the seed's data model, typed where DuckDB can do better than JSON
 * text):
 *
 * - `functions`: the current state of each function — its latest save. `revision` takes a new
 *   value of `revision_seq` whenever the row or one of its vectors changes, so a process's
 *   in-memory search index can tell from `count(*)`, `sum(revision)` and `max(revision)` whether
 *   it is in step with the file, and read only the rows written since (search-index.ts).
 * - `versions`: every save, never changed afterwards; `get_function(name, version)` and
 *   `get_function_history` read it. Kept when a function is deleted.
 * - `embeddings`: one vector per function and embedding model, with the model's name and
 *   dimension, so vectors of different models are never compared and switching models back
 *   needs no re-embedding.
 * - `library_info`: the schema version.
 * - `function_uses` (which library functions a function imports: `from solo_lib import a`) and
 *   `function_fingerprints` (its normalised AST's hash, for the duplicate check), by name.
 *
 * Timestamps are ISO-8601 UTC text (sortable, read the same by every client).
 */
import type { DbSession } from "./library-database.js";

export const SCHEMA_VERSION = 2;

const DDL = [
  `CREATE SEQUENCE IF NOT EXISTS functions_id_seq START 1`,
  `CREATE SEQUENCE IF NOT EXISTS revision_seq START 1`,
  `CREATE TABLE IF NOT EXISTS functions (
     id INTEGER PRIMARY KEY DEFAULT nextval('functions_id_seq'),
     name VARCHAR NOT NULL UNIQUE,
     version INTEGER NOT NULL,
     status VARCHAR NOT NULL,
     code VARCHAR NOT NULL,
     description VARCHAR NOT NULL,
     signature VARCHAR NOT NULL,
     docstring VARCHAR NOT NULL,
     tags VARCHAR[] NOT NULL,
     dependencies VARCHAR[] NOT NULL,
     test_cases VARCHAR NOT NULL,
     metadata VARCHAR NOT NULL,
     search_terms VARCHAR[] NOT NULL,
     name_terms VARCHAR[] NOT NULL,
     created_at VARCHAR NOT NULL,
     updated_at VARCHAR NOT NULL,
     revision BIGINT NOT NULL DEFAULT nextval('revision_seq')
   )`,
  `CREATE TABLE IF NOT EXISTS versions (
     name VARCHAR NOT NULL,
     version INTEGER NOT NULL,
     function_id INTEGER NOT NULL,
     status VARCHAR NOT NULL,
     code VARCHAR NOT NULL,
     submitted_code VARCHAR NOT NULL,
     description VARCHAR NOT NULL,
     signature VARCHAR NOT NULL,
     tags VARCHAR[] NOT NULL,
     dependencies VARCHAR[] NOT NULL,
     test_cases VARCHAR NOT NULL,
     metadata VARCHAR NOT NULL,
     created_at VARCHAR NOT NULL,
     PRIMARY KEY (name, version)
   )`,
  `CREATE TABLE IF NOT EXISTS embeddings (
     function_id INTEGER NOT NULL,
     model_name VARCHAR NOT NULL,
     dimension INTEGER NOT NULL,
     vector FLOAT[] NOT NULL,
     text_hash VARCHAR NOT NULL,
     created_at VARCHAR NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS library_info (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
  // Composition and the duplicate check (domain/library/dependency-graph.ts). New tables only:
  // created in an older library on its first use here, and ignored by an older solo-assets.
  `CREATE TABLE IF NOT EXISTS function_uses (name VARCHAR NOT NULL, uses VARCHAR NOT NULL, PRIMARY KEY (name, uses))`,
  `CREATE TABLE IF NOT EXISTS function_fingerprints (name VARCHAR PRIMARY KEY, fingerprint VARCHAR NOT NULL)`,
];

/** Schema 1 → 2: every function gets a revision (in id order), for the search index. */
const TO_V2 = [
  `ALTER TABLE functions ADD COLUMN IF NOT EXISTS revision BIGINT DEFAULT 0`,
  `UPDATE functions SET revision = nextval('revision_seq') WHERE revision = 0 OR revision IS NULL`,
];

/**
 * Creates the tables when missing, upgrades an older library in place (inside the caller's
 * transaction, so an interrupted upgrade leaves the old schema), and refuses a library written by
 * a newer version.
 */
export async function migrateLibrarySchema(session: DbSession): Promise<void> {
  for (const statement of DDL) await session.run(statement);
  const rows = await session.all(`SELECT value FROM library_info WHERE key = 'schema_version'`);
  const stored = rows[0]?.value === undefined ? undefined : Number(rows[0].value);
  if (stored !== undefined && stored > SCHEMA_VERSION) {
    throw new Error(
      `The library was written by a newer solo-assets (schema ${String(stored)}; this one knows ${SCHEMA_VERSION}). Upgrade solo-assets.`,
    );
  }
  if (stored === SCHEMA_VERSION) return;
  if (stored !== undefined && stored < 2) for (const statement of TO_V2) await session.run(statement);
  await session.run(`INSERT OR REPLACE INTO library_info VALUES ('schema_version', $v)`, { v: String(SCHEMA_VERSION) });
}
