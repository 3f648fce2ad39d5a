/**
 * The one module that touches DuckDB (STYLE.md §11). It binds every parameter (never string
 * concatenation), converts BIGINTs to numbers, and shares one library file between many
 * processes.
 *
 * DuckDB lets one process at a time open a file read-write; a second opener fails with
 * "Could not set lock on file". Every Claude Code session starts its own stdio server and the
 * dashboard is another process, so no process keeps the file open: each operation opens the
 * file, does its work (writes inside one transaction), and closes it again (opening costs
 * ~20 ms). A lock conflict is retried with jittered exponential backoff until the lock timeout.
 * Reads open the file read-only, so readers can share it. Inside one process, operations on a
 * file run one after another (two instances of one file in one process would not see each
 * other's lock).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { BIGINT, BOOLEAN, DOUBLE, DuckDBInstance, DuckDBListValue, DuckDBListVector, FLOAT, INTEGER, LIST, VARCHAR, listValue } from "@duckdb/node-api";
import type { DuckDBConnection, DuckDBDataChunk, DuckDBType, DuckDBValue } from "@duckdb/node-api";
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

function bindings(params: SqlParams): { values: Record<string, DuckDBValue>; types: Record<string, DuckDBType | undefined> } {
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

function chunkRows(chunk: DuckDBDataChunk): ChunkRows {
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

function sessionOn(connection: DuckDBConnection): DbSession {
  const all = async (sql: string, params: SqlParams = {}) => {
    const { values, types } = bindings(params);
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
      const { values, types } = bindings(params);
      await connection.run(sql, values, types);
    },
    scan: async (sql, params, visit) => {
      const { values, types } = bindings(params);
      const result = await connection.stream(sql, values, types);
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        visit(chunkRows(chunk));
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
    this.path = path;
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
    return enqueue(this.path, () => this.withConnection("write", (session) => this.inTransaction(session, work), signal));
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

  private async withConnection<T>(
    mode: "read" | "write",
    work: (session: DbSession) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const instance = await this.open(mode, signal);
    let connection: DuckDBConnection | undefined;
    const interrupt = () => connection?.interrupt();
    signal?.addEventListener("abort", interrupt, { once: true });
    try {
      connection = await instance.connect();
      return await work(sessionOn(connection));
    } finally {
      signal?.removeEventListener("abort", interrupt);
      connection?.closeSync();
      instance.closeSync();
    }
  }

  /** Opens the file, waiting out other processes' locks with jittered exponential backoff. */
  private async open(mode: "read" | "write", signal?: AbortSignal): Promise<DuckDBInstance> {
    if (mode === "write") mkdirSync(dirname(this.path), { recursive: true });
    const options: Record<string, string> = mode === "read" ? { access_mode: "READ_ONLY" } : {};
    const started = Date.now();
    let delay = 5;
    for (let attempt = 1; ; attempt++) {
      try {
        return await DuckDBInstance.create(this.path, options);
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
