/**
 * The library's tables (from the seed's data model, typed where DuckDB can do better than JSON
 * text):
 *
 * - `functions`: the current state of each function — its latest save.
 * - `versions`: every save, never changed afterwards; `get_function(name, version)` and
 *   `get_function_history` read it. Kept when a function is deleted.
 * - `embeddings`: one vector per function and embedding model, with the model's name and
 *   dimension, so vectors of different models are never compared and switching models back
 *   needs no re-embedding.
 * - `library_info`: the schema version.
 *
 * Timestamps are ISO-8601 UTC text (sortable, read the same by every client).
 */
import type { DbSession } from "./library-database.js";

export const SCHEMA_VERSION = 1;

const DDL = [
  `CREATE SEQUENCE IF NOT EXISTS functions_id_seq START 1`,
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
     updated_at VARCHAR NOT NULL
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
];

/** Creates the tables when missing and refuses a library written by a newer version. */
export async function migrateLibrarySchema(session: DbSession): Promise<void> {
  for (const statement of DDL) await session.run(statement);
  const rows = await session.all(`SELECT value FROM library_info WHERE key = 'schema_version'`);
  const stored = rows[0]?.value;
  if (stored === undefined) {
    await session.run(`INSERT INTO library_info VALUES ('schema_version', $v)`, { v: String(SCHEMA_VERSION) });
  } else if (Number(stored) > SCHEMA_VERSION) {
    throw new Error(
      `The library was written by a newer solo-assets (schema ${String(stored)}; this one knows ${SCHEMA_VERSION}). Upgrade solo-assets.`,
    );
  }
}
