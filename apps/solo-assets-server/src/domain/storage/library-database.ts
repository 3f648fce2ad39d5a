/**
 * The one module that touches DuckDB. It binds every parameter (never string
 * concatenation), converts BIGINTs to numbers, and shares one library file between many
 * processes.
 *
 * DuckDB lets one process at a time open a file read-write; a second opener fails with
 * "Could not set lock on file". Every Claude Code session starts its own stdio server and the
 * dashboard is another process, so no process keeps the file open: each operation attaches the
 * file, does its work (writes inside one transaction), and detaches it again, which checkpoints
 * and releases the lock. A lock conflict is retried with jittered exponential backoff until the
 * lock timeout. Reads attach the file read-only, so readers can share it. Inside one process,
 * operations on a file run one after another.
 *
 * The file is attached to one in-memory DuckDB kept for the life of the process rather than
 * opened as an instance of its own each time: creating a DuckDB instance costs ~20 ms (even for
 * `:memory:`) and closing it ~4 ms, while ATTACH costs ~2 ms and DETACH ~0.6 ms — most of a
 * search's time at 100k functions before this (bench/solo-assets.mjs). The lock, the checkpoint
 * on detach and the error for a held lock are the same as for an instance of its own.
 *
 * `@duckdb/node-api` (a native addon) is loaded with the first operation, not with this module:
 * a server answers initialize and tools/list without it.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type * as DuckDb from "@duckdb/node-api";
import type { DuckDBConnection, DuckDBDataChunk, DuckDBInstance, DuckDBType, DuckDBValue } from "@duckdb/node-api";
import { ToolError, abortableDelay, silentLogger } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";

/** A list parameter carries its item type (DuckDB cannot type an empty list). */
export interface SqlList {
  readonly kind: "list";
  readonly itemType: "VARCHAR" | "FLOAT" | "INTEGER";
  readonly items: readonly (string | number)[];
}
export type SqlParam = string | number | boolean | null | SqlList;
export type SqlParams = Readonly<Record<string, SqlParam>>;
export type Row = Record<string, unknown>;

export const varcharList = (items: readonly string[]): SqlList => ({ kind: "list", itemType: "VARCHAR", items });
export const floatList = (items: ArrayLike<number>): SqlList => ({ kind: "list", itemType: "FLOAT", items: Array.from(items) });
export const integerList = (items: readonly number[]): SqlList => ({ kind: "list", itemType: "INTEGER", items });

/**
 * One chunk of a streamed result (up to 2,048 rows), read cell by cell without building a row
 * object per row: bulk loads (the search index reads 100k vectors) take seconds this way instead
 * of the half minute `all` needs.
 */
export interface ChunkRows {
  readonly rowCount: number;
  /** A numeric cell (BIGINTs as numbers); null when NULL. */
  number(column: number, row: number): number | null;
  /** A VARCHAR cell; null when NULL. */
  string(column: number, row: number): string | null;
  /** A VARCHAR[] cell; null when NULL. */
  strings(column: number, row: number): string[] | null;
  /** A FLOAT[] cell copied into `target` (which must be long enough); its length, or null when NULL. */
  floats(column: number, row: number, target: Float32Array): number | null;
}

/** What a unit of work gets: parameterised statements on one connection. */
export interface DbSession {
  all(sql: string, params?: SqlParams): Promise<Row[]>;
  run(sql: string, params?: SqlParams): Promise<void>;
  /** Streams the result chunk by chunk to `visit`. */
  scan(sql: string, params: SqlParams, visit: (rows: ChunkRows) => void): Promise<void>;
}

export interface LibraryDatabaseOptions {
  /** How long to keep retrying while another process holds the file. */
  lockTimeoutMs: number;
  /** Creates or upgrades the schema; runs once, in the first read-write session. */
  migrate: (session: DbSession) => Promise<void>;
  logger?: Logger;
}

const LOCK_ERROR = /Could not set lock on file|Conflicting lock is held/i;
const HOLDER = /\(PID (\d+)\)/;

/**
 * Operations per file in this process, one after another. Module-level on purpose: the file
 * lock belongs to the process, so every LibraryDatabase of one path must share the queue.
 */
const processQueues = new Map<string, Promise<unknown>>();

type DuckDbModule = typeof DuckDb;

/** `@duckdb/node-api`, loaded on the first operation of the process. */
let duckDbModule: Promise<DuckDbModule> | undefined;

function loadDuckDb(): Promise<DuckDbModule> {
  duckDbModule ??= import("@duckdb/node-api").catch((error: unknown) => {
    duckDbModule = undefined;
    throw error;
  });
  return duckDbModule;
}

/** The process's in-memory DuckDB that library files are attached to, one operation at a time. */
let host: Promise<DuckDBInstance> | undefined;
/** Names the attachments apart (`library_1`, `library_2`, …): only generated names reach SQL text. */
let attachments = 0;

function hostInstance(): Promise<DuckDBInstance> {
  host ??= loadDuckDb()
    .then((duckdb) => duckdb.DuckDBInstance.create(":memory:"))
    .catch((error: unknown) => {
      host = undefined;
      throw error;
    });
  return host;
}

/**
 * Closes the host instance, which detaches whatever is still attached and so releases its file
 * locks; the next operation creates a new one. Only for a detach that failed twice.
 */
async function dropHostInstance(): Promise<void> {
  const dropped = host;
  host = undefined;
  (await dropped?.catch(() => undefined))?.closeSync();
}

/** A string literal for SQL text (ATTACH takes no parameters): quotes doubled, as the standard says. */
function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function enqueue<T>(path: string, work: () => Promise<T>): Promise<T> {
  const previous = processQueues.get(path) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  processQueues.set(path, settled);
  void settled.then(() => {
    if (processQueues.get(path) === settled) processQueues.delete(path);
  });
  return next;
}

function bindings(
  duckdb: DuckDbModule,
  params: SqlParams,
): { values: Record<string, DuckDBValue>; types: Record<string, DuckDBType | undefined> } {
  const { BIGINT, BOOLEAN, DOUBLE, FLOAT, INTEGER, LIST, VARCHAR, listValue } = duckdb;
  const values: Record<string, DuckDBValue> = {};
  const types: Record<string, DuckDBType | undefined> = {};
  for (const [name, param] of Object.entries(params)) {
    if (param === null) {
      values[name] = null;
    } else if (typeof param === "string") {
      values[name] = param;
      types[name] = VARCHAR;
    } else if (typeof param === "boolean") {
      values[name] = param;
      types[name] = BOOLEAN;
    } else if (typeof param === "number") {
      if (Number.isSafeInteger(param)) {
        values[name] = BigInt(param);
        types[name] = BIGINT;
      } else {
        values[name] = param;
        types[name] = DOUBLE;
      }
    } else {
      values[name] = listValue([...param.items]);
      types[name] = LIST(param.itemType === "VARCHAR" ? VARCHAR : param.itemType === "FLOAT" ? FLOAT : INTEGER);
    }
  }
  return { values, types };
}

/** BIGINT → number (ids and counts here stay far below 2^53), recursively through lists. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

function chunkRows(duckdb: DuckDbModule, chunk: DuckDBDataChunk): ChunkRows {
  const { DuckDBListValue, DuckDBListVector } = duckdb;
  const cell = (column: number, row: number): unknown => chunk.getColumnVector(column).getItem(row);
  return {
    rowCount: chunk.rowCount,
    number: (column, row) => {
      const value = cell(column, row);
      return value === null ? null : Number(value);
    },
    string: (column, row) => {
      const value = cell(column, row);
      return value === null ? null : String(value);
    },
    strings: (column, row) => {
      const value = cell(column, row);
      return value instanceof DuckDBListValue ? value.items.map(String) : null;
    },
    floats: (column, row, target) => {
      const vector = chunk.getColumnVector(column);
      if (!(vector instanceof DuckDBListVector)) throw new Error(`column ${column} is not a list`);
      if (vector.getItemVector(row) === null) return null;
      const offset = vector.getEntryOffset(row);
      const length = vector.getEntryLength(row);
      const items = vector.childVector;
      for (let i = 0; i < length; i++) target[i] = Number(items.getItem(offset + i));
      return length;
    },
  };
}

function sessionOn(duckdb: DuckDbModule, connection: DuckDBConnection): DbSession {
  const all = async (sql: string, params: SqlParams = {}) => {
    const { values, types } = bindings(duckdb, params);
    const reader = await connection.runAndReadAll(sql, values, types);
    return reader.getRowObjectsJS().map((row) => {
      const out: Row = {};
      for (const [key, value] of Object.entries(row)) out[key] = plain(value);
      return out;
    });
  };
  return {
    all,
    run: async (sql, params = {}) => {
      const { values, types } = bindings(duckdb, params);
      await connection.run(sql, values, types);
    },
    scan: async (sql, params, visit) => {
      const { values, types } = bindings(duckdb, params);
      const result = await connection.stream(sql, values, types);
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        visit(chunkRows(duckdb, chunk));
      }
    },
  };
}

export class LibraryDatabase {
  readonly path: string;
  private readonly logger: Logger;
  private migrated: Promise<void> | undefined;

  constructor(
    path: string,
    private readonly options: LibraryDatabaseOptions,
  ) {
    // Absolute, so that every LibraryDatabase of one file in this process shares one queue.
    this.path = resolve(path);
    this.logger = options.logger ?? silentLogger;
  }

  /** Runs `work` on a read-only connection (other readers may share the file meanwhile). */
  async read<T>(work: (session: DbSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.ensureSchema(signal);
    return enqueue(this.path, () => this.withConnection("read", work, signal));
  }

  /**
   * Runs `work` inside one transaction on a read-write connection: everything it wrote is
   * committed together, or — on an error, an abort or a crash — nothing is.
   */
  async write<T>(work: (session: DbSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.ensureSchema(signal);
    // The answer comes at COMMIT: the write is durable then (DuckDB has synced its WAL). DETACH
    // checkpoints the WAL into the file, ~0.1 s of fsyncs on this machine even for a one-row
    // write (more than the transaction itself), and runs after the caller has its answer, still
    // inside this file's queue slot: the process's next operation on the file waits for it, and
    // another process waits for the lock, as before. A process that exits before the checkpoint
    // leaves the WAL beside the file, which the next attach replays.
    return new Promise<T>((resolveCommitted, reject) => {
      enqueue(this.path, () =>
        this.withConnection(
          "write",
          async (session) => {
            const result = await this.inTransaction(session, work);
            resolveCommitted(result);
            return result;
          },
          signal,
        ),
      ).catch(reject);
    });
  }

  /** Resolves when this process has no operation on the file in flight, checkpoints included (before exit). */
  async settled(): Promise<void> {
    await processQueues.get(this.path);
  }

  private ensureSchema(signal?: AbortSignal): Promise<void> {
    this.migrated ??= enqueue(this.path, () =>
      this.withConnection("write", (session) => this.inTransaction(session, this.options.migrate), signal),
    ).catch((error: unknown) => {
      this.migrated = undefined;
      throw error;
    });
    return this.migrated;
  }

  private async inTransaction<T>(session: DbSession, work: (session: DbSession) => Promise<T>): Promise<T> {
    await session.run("BEGIN TRANSACTION");
    try {
      const result = await work(session);
      await session.run("COMMIT");
      return result;
    } catch (error) {
      await session.run("ROLLBACK").catch(() => undefined);
      throw error;
    }
  }

  private async withConnection<T>(mode: "read" | "write", work: (session: DbSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const duckdb = await loadDuckDb();
    const connection = await (await hostInstance()).connect();
    const alias = `library_${++attachments}`;
    try {
      await this.attach(connection, alias, mode, signal);
    } catch (error) {
      connection.closeSync();
      throw error;
    }
    const interrupt = () => connection.interrupt();
    signal?.addEventListener("abort", interrupt, { once: true });
    try {
      await connection.run(`USE ${alias}`);
      return await work(sessionOn(duckdb, connection));
    } finally {
      signal?.removeEventListener("abort", interrupt);
      await this.detach(connection, alias);
    }
  }

  /**
   * Detaches the file (checkpointing what was written and releasing the lock) and closes the
   * connection. Should DETACH fail — a transaction left open, say — the connection is closed
   * (rolling it back) and DETACH is tried on a fresh one; should that fail too, the host instance
   * is closed, which releases every lock it holds: no file stays locked by this process.
   */
  private async detach(connection: DuckDBConnection, alias: string): Promise<void> {
    const detachOn = async (on: DuckDBConnection) => {
      await on.run("USE memory");
      await on.run(`DETACH ${alias}`);
    };
    try {
      await detachOn(connection);
      connection.closeSync();
      return;
    } catch (error) {
      connection.closeSync();
      this.logger.warn("detaching the library failed; retrying on a new connection", { error: String(error) });
    }
    try {
      const retry = await (await hostInstance()).connect();
      try {
        await detachOn(retry);
      } finally {
        retry.closeSync();
      }
    } catch (error) {
      this.logger.error("detaching the library failed again; closing the in-memory DuckDB to release the file", { error: String(error) });
      await dropHostInstance();
    }
  }

  /** Attaches the file as `alias`, waiting out other processes' locks with jittered exponential backoff. */
  private async attach(connection: DuckDBConnection, alias: string, mode: "read" | "write", signal?: AbortSignal): Promise<void> {
    if (mode === "write") mkdirSync(dirname(this.path), { recursive: true });
    const statement = `ATTACH ${sqlString(this.path)} AS ${alias}${mode === "read" ? " (READ_ONLY)" : ""}`;
    const started = Date.now();
    let delay = 5;
    for (let attempt = 1; ; attempt++) {
      try {
        await connection.run(statement);
        return;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!LOCK_ERROR.test(message)) throw error;
        const waited = Date.now() - started;
        if (waited >= this.options.lockTimeoutMs) {
          const holder = HOLDER.exec(message)?.[1];
          throw new ToolError(
            "TIMEOUT",
            `The function library ${this.path} stayed locked by another process${holder ? ` (PID ${holder})` : ""} for ${waited} ms.`,
            {
              suggestion: "Retry in a moment; if it persists, look for a process stuck holding the library (solo-assets status).",
              details: { attempts: attempt, waitedMs: waited, ...(holder ? { holderPid: Number(holder) } : {}) },
            },
          );
        }
        if (attempt === 1 || attempt % 20 === 0) this.logger.debug("library file busy; retrying", { attempt, waitedMs: waited });
        const jittered = delay * (0.5 + Math.random());
        await abortableDelay(Math.min(jittered, Math.max(1, this.options.lockTimeoutMs - waited)), signal);
        delay = Math.min(delay * 2, 100);
      }
    }
  }
}
