/**
 * A cross-process lock that names its holder: a directory (say `stats.json.lock`) holding one
 * record, `holder.<token>.json` = `{pid, hostname, startedAt, token}`.
 *
 * - **Taking it.** A writer makes its own candidate directory next to the lock, with its record
 *   already inside, and renames it to the lock's name. rename(2) of a directory onto a name that
 *   is a non-empty directory fails, so exactly one writer wins, and a lock is never seen without
 *   its record. An empty lock directory has no holder: anyone may remove it (rmdir only removes
 *   empty directories) and take the name.
 * - **A dead holder.** A waiter reads the record; when the holder ran on this host and its pid is
 *   gone (`kill(pid, 0)` → ESRCH; EPERM means alive), the waiter deletes that record — by its
 *   token, so it can only ever delete the record it judged, never a newer holder's — removes the
 *   now empty directory and takes the lock at once. Two waiters judging the same dead holder both
 *   delete the same record (one of them finds it gone) and then race on the rename: one wins.
 * - **A stale holder.** The holder touches its record every `staleMs / 2`. A record not touched
 *   for `staleMs` is deleted the same way, whoever and wherever its holder is: the fallback for
 *   holders on other hosts, records that cannot be read, pids reused by another process, and
 *   anything else found in the directory. A holder whose record was deleted has lost the lock:
 *   {@link HeldLock.isHeld} says so before it writes.
 * - **Leftovers.** A writer killed before its rename leaves its candidate directory
 *   (`.<lock>.<pid>.<token>.new`); the next writer to take the lock removes those of dead pids.
 *
 * On a shared folder, processes that report the same hostname must share a pid namespace (two
 * containers with one hostname and their own pids could judge each other dead).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { errnoCode } from "./errno.js";
import { isProcessAlive } from "./process-alive.js";

/** Who holds a lock, as its record says. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** When this holder started to take the lock (ISO 8601). */
  startedAt: string;
  /** Unique per taking; names the record file. */
  token: string;
}

export interface DirectoryLockOptions {
  /** Give up waiting after this long (default 10 s). */
  timeoutMs?: number;
  /** A record not touched for this long is taken over, its holder alive or not (default 10 s). */
  staleMs?: number;
}

export interface HeldLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** False once the record was deleted by a waiter that judged it stale. */
  isHeld(): boolean;
  /** Gives the lock up; safe to call twice, and after the lock was lost. */
  release(): Promise<void>;
}

export class LockTimeoutError extends Error {
  override readonly name = "LockTimeoutError";
  constructor(
    readonly lockPath: string,
    readonly timeoutMs: number,
    /** The holder seen last, if its record could be read. */
    readonly holder: LockHolder | undefined,
  ) {
    super(
      `Could not take ${lockPath} within ${timeoutMs} ms${holder ? ` (held by pid ${holder.pid} on ${holder.hostname} since ${holder.startedAt})` : ""}`,
    );
  }
}

const RECORD = /^holder\.([0-9a-f]{16})\.json$/;
/** rename(2) errors that mean the lock's name is taken (EPERM: Windows, a directory in the way). */
const NAME_TAKEN = new Set(["ENOTEMPTY", "EEXIST", "ENOTDIR", "EPERM"]);

function recordName(token: string): string {
  return `holder.${token}.json`;
}

export async function withDirectoryLock<T>(
  path: string,
  work: (lock: HeldLock) => Promise<T>,
  options: DirectoryLockOptions = {},
): Promise<T> {
  const lock = await acquireDirectoryLock(path, options);
  try {
    return await work(lock);
  } finally {
    await lock.release();
  }
}

/** Waits for the lock at `path` (its parent folder must exist); throws {@link LockTimeoutError} when it cannot get it in time. */
export async function acquireDirectoryLock(path: string, options: DirectoryLockOptions = {}): Promise<HeldLock> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 10_000;
  const holder: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString("hex"),
  };
  const candidate = join(dirname(path), `.${basename(path)}.${process.pid}.${holder.token}.new`);
  await mkdir(candidate);
  const deadline = Date.now() + timeoutMs;
  let freedInARow = 0;
  try {
    const candidateRecord = join(candidate, recordName(holder.token));
    await writeFile(candidateRecord, `${JSON.stringify(holder)}\n`);
    for (let attempt = 0; ; attempt++) {
      try {
        // Fresh when it lands, however long this writer waited: not stale on arrival.
        if (attempt > 0) {
          const now = new Date();
          await utimes(candidateRecord, now, now);
        }
        await rename(candidate, path);
        break;
      } catch (error) {
        if (!NAME_TAKEN.has(errnoCode(error) ?? "")) throw error;
      }
      const seen = await clearAbandoned(path, staleMs);
      if (Date.now() >= deadline) throw new LockTimeoutError(path, timeoutMs, seen === "freed" ? undefined : seen.holder);
      // Try again at once after freeing the name, but not in a tight loop if that keeps failing.
      if (seen === "freed" && freedInARow++ < 3) continue;
      if (seen !== "freed") freedInARow = 0;
      const wait = Math.min(100, 5 + attempt * 5) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(1, deadline - Date.now()))));
    }
  } catch (error) {
    await rm(candidate, { recursive: true, force: true });
    throw error;
  }
  const held = holdLock(path, holder, staleMs);
  await removeOrphanedCandidates(path, staleMs);
  return held;
}

/** The taken lock: its record is touched every `staleMs / 2` until it is released or lost. */
function holdLock(path: string, holder: LockHolder, staleMs: number): HeldLock {
  const record = join(path, recordName(holder.token));
  let lost = false;
  let released = false;
  const refresh = setInterval(
    () => {
      const now = new Date();
      utimes(record, now, now).catch((error: unknown) => {
        if (errnoCode(error) === "ENOENT") lost = true;
      });
    },
    Math.max(10, Math.floor(staleMs / 2)),
  );
  refresh.unref();
  return {
    path,
    holder,
    isHeld: () => !released && !lost && existsSync(record),
    async release() {
      if (released) return;
      released = true;
      clearInterval(refresh);
      await rm(record, { force: true });
      // Empty now unless someone took it already (then rmdir fails and leaves theirs alone).
      await rmdir(path).catch(() => undefined);
    },
  };
}

/**
 * Deletes the records in the lock at `path` whose holder is dead on this host or stale, and the
 * directory once it is empty. Only names read from the directory are deleted, and a record's
 * name is unique to one taking, so a lock taken meanwhile by someone else is never touched.
 * Returns "freed" when the name may be free now, else the holder that keeps it.
 */
async function clearAbandoned(path: string, staleMs: number): Promise<"freed" | { holder: LockHolder | undefined }> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return "freed";
  if (!info.isDirectory()) {
    // Not a lock of this kind (a lock file of an older version): taken over by age alone.
    // rm without `recursive` never removes a directory, so a lock taken meanwhile is safe.
    if (Date.now() - info.mtimeMs <= staleMs) return { holder: undefined };
    await rm(path, { force: true }).catch(() => undefined);
    return "freed";
  }
  const names = await readdir(path).catch(() => undefined);
  if (names === undefined) return "freed";
  let keeper: LockHolder | undefined;
  let kept = false;
  for (const name of names) {
    const entry = join(path, name);
    const token = RECORD.exec(name)?.[1];
    const holder = token === undefined ? undefined : await readRecord(entry, token);
    if (holder !== undefined && holder.hostname === hostname() && !isProcessAlive(holder.pid)) {
      await rm(entry, { force: true });
      continue;
    }
    const entryInfo = await lstat(entry).catch(() => undefined);
    if (entryInfo === undefined) continue;
    if (Date.now() - entryInfo.mtimeMs > staleMs) {
      await rm(entry, { recursive: true, force: true });
      continue;
    }
    kept = true;
    keeper ??= holder;
  }
  if (kept) return { holder: keeper };
  await rmdir(path).catch(() => undefined);
  return "freed";
}

async function readRecord(file: string, token: string): Promise<LockHolder | undefined> {
  try {
    const value = JSON.parse(await readFile(file, "utf8")) as Partial<LockHolder> | null;
    if (value === null || typeof value !== "object") return undefined;
    const { pid, hostname: host, startedAt } = value;
    if (
      typeof pid !== "number" ||
      !Number.isInteger(pid) ||
      pid <= 0 ||
      typeof host !== "string" ||
      typeof startedAt !== "string" ||
      value.token !== token
    )
      return undefined;
    return { pid, hostname: host, startedAt, token };
  } catch {
    return undefined;
  }
}

/**
 * Removes the candidate directories of writers killed before their rename: those whose record
 * names a dead pid on this host, or, without a readable record, older than `staleMs`. Best
 * effort: the lock is taken already.
 */
async function removeOrphanedCandidates(path: string, staleMs: number): Promise<void> {
  const prefix = `.${basename(path)}.`;
  const candidate = /^(\d+)\.([0-9a-f]{16})\.new$/;
  try {
    for (const name of await readdir(dirname(path))) {
      if (!name.startsWith(prefix)) continue;
      const match = candidate.exec(name.slice(prefix.length));
      if (match === null || Number(match[1]) === process.pid) continue;
      const entry = join(dirname(path), name);
      const holder = await readRecord(join(entry, recordName(match[2] ?? "")), match[2] ?? "");
      const abandoned =
        holder !== undefined
          ? holder.hostname === hostname() && !isProcessAlive(holder.pid)
          : await lstat(entry).then(
              (info) => Date.now() - info.mtimeMs > staleMs,
              () => false,
            );
      if (abandoned) await rm(entry, { recursive: true, force: true });
    }
  } catch {
    // An unreadable folder keeps its leftovers.
  }
}
