/**
 * The library's SQL: every statement against the functions, versions and embeddings tables,
 * each taking a session from LibraryDatabase (so the caller decides the transaction). Values
 * are always bound parameters.
 */
import type { FunctionStatus } from "../gate/gate-report.js";
import { floatList, varcharList } from "../storage/library-database.js";
import type { DbSession, Row, SqlParams } from "../storage/library-database.js";
import type { FunctionMetadata, FunctionRecord, FunctionSummaryRecord, TestCase, VersionRecord } from "./function-record.js";

export interface FunctionFilter {
  statuses?: readonly FunctionStatus[];
  /** Functions that have any of these tags. */
  tags?: readonly string[];
  /** Case-insensitive substring of name, description or tags. */
  text?: string;
}

export interface StoredFunctionRow {
  name: string;
  status: FunctionStatus;
  code: string;
  submittedCode: string;
  description: string;
  signature: string;
  docstring: string;
  tags: string[];
  dependencies: string[];
  testCases: TestCase[];
  metadata: FunctionMetadata;
  searchTerms: string[];
  nameTerms: string[];
  at: string;
}

const FUNCTION_COLUMNS = `id, name, version, status, code, description, signature, docstring, tags, dependencies,
  test_cases, metadata, created_at, updated_at`;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

export function toFunctionRecord(row: Row): FunctionRecord {
  return {
    id: Number(row.id),
    name: String(row.name),
    version: Number(row.version),
    status: row.status as FunctionStatus,
    code: String(row.code),
    description: String(row.description),
    signature: String(row.signature),
    docstring: String(row.docstring),
    tags: strings(row.tags),
    dependencies: strings(row.dependencies),
    testCases: JSON.parse(String(row.test_cases)) as TestCase[],
    metadata: JSON.parse(String(row.metadata)) as FunctionMetadata,
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

function toVersionRecord(row: Row): VersionRecord {
  return {
    name: String(row.name),
    version: Number(row.version),
    status: row.status as FunctionStatus,
    code: String(row.code),
    submittedCode: String(row.submitted_code),
    description: String(row.description),
    signature: String(row.signature),
    tags: strings(row.tags),
    dependencies: strings(row.dependencies),
    testCases: JSON.parse(String(row.test_cases)) as TestCase[],
    metadata: JSON.parse(String(row.metadata)) as FunctionMetadata,
    createdAt: String(row.created_at),
  };
}

/** WHERE conditions and parameters for a filter over `functions` (alias f). */
function filterSql(filter: FunctionFilter): { where: string; params: Record<string, SqlParams[string]> } {
  const conditions: string[] = [];
  const params: Record<string, SqlParams[string]> = {};
  if (filter.statuses && filter.statuses.length > 0) {
    conditions.push("list_contains($statuses, f.status)");
    params.statuses = varcharList(filter.statuses);
  }
  if (filter.tags && filter.tags.length > 0) {
    conditions.push("list_has_any(f.tags, $tags)");
    params.tags = varcharList(filter.tags);
  }
  if (filter.text && filter.text.trim().length > 0) {
    conditions.push("(contains(lower(f.name), $text) OR contains(lower(f.description), $text) OR list_contains(f.tags, $text))");
    params.text = filter.text.trim().toLowerCase();
  }
  return { where: conditions.length > 0 ? conditions.join(" AND ") : "TRUE", params };
}

/** Stores one save: a new version row and the function's current state, in the caller's transaction. */
export async function storeSave(session: DbSession, save: StoredFunctionRow): Promise<{ id: number; version: number }> {
  const next = await session.all(`SELECT coalesce(max(version), 0) + 1 AS v FROM versions WHERE name = $name`, { name: save.name });
  const version = Number(next[0]?.v ?? 1);
  const existing = await session.all(`SELECT id, created_at FROM functions WHERE name = $name`, { name: save.name });
  const common = {
    name: save.name,
    version,
    status: save.status,
    code: save.code,
    description: save.description,
    signature: save.signature,
    docstring: save.docstring,
    tags: varcharList(save.tags),
    dependencies: varcharList(save.dependencies),
    test_cases: JSON.stringify(save.testCases),
    metadata: JSON.stringify(save.metadata),
    search_terms: varcharList(save.searchTerms),
    name_terms: varcharList(save.nameTerms),
    at: save.at,
  };
  let id: number;
  const current = existing[0];
  if (current) {
    id = Number(current.id);
    await session.run(
      `UPDATE functions SET version = $version, status = $status, code = $code, description = $description,
         signature = $signature, docstring = $docstring, tags = $tags, dependencies = $dependencies,
         test_cases = $test_cases, metadata = $metadata, search_terms = $search_terms, name_terms = $name_terms,
         updated_at = $at, revision = nextval('revision_seq')
       WHERE id = $id AND name = $name`,
      { ...common, id },
    );
  } else {
    const inserted = await session.all(
      `INSERT INTO functions (name, version, status, code, description, signature, docstring, tags, dependencies,
         test_cases, metadata, search_terms, name_terms, created_at, updated_at)
       VALUES ($name, $version, $status, $code, $description, $signature, $docstring, $tags, $dependencies,
         $test_cases, $metadata, $search_terms, $name_terms, $at, $at)
       RETURNING id`,
      common,
    );
    id = Number(inserted[0]?.id);
  }
  await session.run(
    `INSERT INTO versions (name, version, function_id, status, code, submitted_code, description, signature, tags,
       dependencies, test_cases, metadata, created_at)
     VALUES ($name, $version, $id, $status, $code, $submitted, $description, $signature, $tags, $dependencies,
       $test_cases, $metadata, $at)`,
    {
      name: save.name,
      version,
      id,
      status: save.status,
      code: save.code,
      submitted: save.submittedCode,
      description: save.description,
      signature: save.signature,
      tags: common.tags,
      dependencies: common.dependencies,
      test_cases: common.test_cases,
      metadata: common.metadata,
      at: save.at,
    },
  );
  return { id, version };
}

/** Replaces the function's vector for one model (other models' vectors stay) and bumps its revision. */
export async function storeEmbedding(
  session: DbSession,
  embedding: { functionId: number; model: string; vector: Float32Array; textHash: string; at: string },
): Promise<void> {
  await session.run(`DELETE FROM embeddings WHERE function_id = $id AND model_name = $model`, {
    id: embedding.functionId,
    model: embedding.model,
  });
  await session.run(
    `INSERT INTO embeddings (function_id, model_name, dimension, vector, text_hash, created_at)
     VALUES ($id, $model, $dimension, $vector, $hash, $at)`,
    {
      id: embedding.functionId,
      model: embedding.model,
      dimension: embedding.vector.length,
      vector: floatList(embedding.vector),
      hash: embedding.textHash,
      at: embedding.at,
    },
  );
  await session.run(`UPDATE functions SET revision = nextval('revision_seq') WHERE id = $id`, { id: embedding.functionId });
}

export async function findFunction(session: DbSession, name: string): Promise<FunctionRecord | undefined> {
  const rows = await session.all(`SELECT ${FUNCTION_COLUMNS} FROM functions WHERE name = $name`, { name });
  return rows[0] ? toFunctionRecord(rows[0]) : undefined;
}

export async function findVersion(session: DbSession, name: string, version: number): Promise<VersionRecord | undefined> {
  const rows = await session.all(`SELECT * FROM versions WHERE name = $name AND version = $version`, { name, version });
  return rows[0] ? toVersionRecord(rows[0]) : undefined;
}

/** Every version of a name, newest first. */
export async function listVersions(session: DbSession, name: string): Promise<VersionRecord[]> {
  const rows = await session.all(`SELECT * FROM versions WHERE name = $name ORDER BY version DESC`, { name });
  return rows.map(toVersionRecord);
}

export async function listFunctions(
  session: DbSession,
  filter: FunctionFilter,
  page: { limit: number; offset: number },
): Promise<{ total: number; functions: FunctionRecord[] }> {
  const { where, params } = filterSql(filter);
  const total = await session.all(`SELECT count(*) AS n FROM functions f WHERE ${where}`, params);
  const rows = await session.all(
    `SELECT ${FUNCTION_COLUMNS} FROM functions f WHERE ${where} ORDER BY f.updated_at DESC, f.name LIMIT $limit OFFSET $offset`,
    { ...params, limit: page.limit, offset: page.offset },
  );
  return { total: Number(total[0]?.n ?? 0), functions: rows.map(toFunctionRecord) };
}

/**
 * The search hits' summaries: the record without its code, test cases and metadata — the heavy
 * columns, which DuckDB would otherwise decompress from a file opened cold for every search.
 */
export async function functionSummariesByIds(session: DbSession, ids: readonly number[]): Promise<Map<number, FunctionSummaryRecord>> {
  if (ids.length === 0) return new Map();
  // `id IN ($i0, $i1, …)`, one bound parameter per id: ~15 % faster than list_contains on a
  // freshly attached file at 100k functions (both scan the table; there are at most a few dozen ids).
  const params = Object.fromEntries(ids.map((id, i) => [`i${i}`, id]));
  const rows = await session.all(
    `SELECT id, name, version, status, description, signature, docstring, tags, dependencies, created_at, updated_at
     FROM functions WHERE id IN (${ids.map((_, i) => `$i${i}`).join(", ")})`,
    params,
  );
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        name: String(row.name),
        version: Number(row.version),
        status: row.status as FunctionStatus,
        description: String(row.description),
        signature: String(row.signature),
        docstring: String(row.docstring),
        tags: strings(row.tags),
        dependencies: strings(row.dependencies),
        createdAt: String(row.created_at),
        updatedAt: String(row.updated_at),
      },
    ]),
  );
}

/** Deletes the function and its vectors; its versions stay for the history. */
export async function deleteFunction(session: DbSession, name: string): Promise<{ id: number; versions: number } | undefined> {
  const rows = await session.all(`SELECT id FROM functions WHERE name = $name`, { name });
  const row = rows[0];
  if (!row) return undefined;
  const id = Number(row.id);
  await session.run(`DELETE FROM embeddings WHERE function_id = $id`, { id });
  await session.run(`DELETE FROM functions WHERE id = $id`, { id });
  const versions = await session.all(`SELECT count(*) AS n FROM versions WHERE name = $name`, { name });
  return { id, versions: Number(versions[0]?.n ?? 0) };
}

export async function functionExists(session: DbSession, id: number): Promise<boolean> {
  return (await session.all(`SELECT 1 FROM functions WHERE id = $id`, { id })).length > 0;
}

export interface EmbeddingState {
  id: number;
  name: string;
  description: string;
  signature: string;
  docstring: string;
  tags: string[];
  /** The text hash of the stored vector of the given model, if any. */
  storedHash: string | undefined;
}

/** Every function with the hash of its vector for `model` (for reindexing). */
export async function embeddingStates(session: DbSession, model: string, dimension: number): Promise<EmbeddingState[]> {
  const rows = await session.all(
    `SELECT f.id, f.name, f.description, f.signature, f.docstring, f.tags, e.text_hash
     FROM functions f LEFT JOIN embeddings e ON e.function_id = f.id AND e.model_name = $model AND e.dimension = $dimension
     ORDER BY f.id`,
    { model, dimension },
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    description: String(row.description),
    signature: String(row.signature),
    docstring: String(row.docstring),
    tags: strings(row.tags),
    storedHash: row.text_hash === null || row.text_hash === undefined ? undefined : String(row.text_hash),
  }));
}

export interface LibraryCounts {
  functions: number;
  byStatus: Record<FunctionStatus, number>;
  versions: number;
  embeddings: { model: string; dimension: number; count: number }[];
}

export async function libraryCounts(session: DbSession): Promise<LibraryCounts> {
  const statuses = await session.all(`SELECT status, count(*) AS n FROM functions GROUP BY status`);
  const versions = await session.all(`SELECT count(*) AS n FROM versions`);
  const embeddings = await session.all(
    `SELECT model_name, dimension, count(*) AS n FROM embeddings GROUP BY model_name, dimension ORDER BY model_name`,
  );
  const byStatus: Record<FunctionStatus, number> = { active: 0, broken: 0, unverified: 0 };
  for (const row of statuses) byStatus[row.status as FunctionStatus] = Number(row.n);
  return {
    functions: Object.values(byStatus).reduce((a, b) => a + b, 0),
    byStatus,
    versions: Number(versions[0]?.n ?? 0),
    embeddings: embeddings.map((row) => ({ model: String(row.model_name), dimension: Number(row.dimension), count: Number(row.n) })),
  };
}
