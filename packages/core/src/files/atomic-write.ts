/**
 * Atomic replacement of a file: write a temporary file next to it, fsync it, rename it over
 * the target, fsync the directory. Readers see the old bytes or the new ones, never a mix,
 * and a crash leaves at most a stray temporary file — which the next successful write into the
 * same folder removes, once the process that made it is gone (its pid is in the name).
 * {@link writeFileAtomicSync} does the same for callers that cannot await.
 *
 * A caller that must not overwrite a change made since it read the file (a writer without the
 * caller's lock, such as an editor saving it) or that may be cancelled passes `beforeRename`
 * and/or `signal`: they are checked after the temporary file is complete and flushed, in the
 * same synchronous step as the rename, so the window in which another process's save can still
 * be replaced unseen is only the time between the check's last read and the rename(2) call.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fchmodSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open, readdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isProcessAlive } from "./process-alive.js";

/** `.<target>.<pid>.<12 hex>.tmp`: the temporary files this module makes. */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

export interface WriteFileAtomicOptions {
  /**
   * The file's permission bits, set exactly (umask does not apply) from the moment the
   * temporary file exists — 0o600 keeps a secret private throughout. Default: the mode of the
   * file being replaced, or 0o644 for a new file.
   */
  mode?: number;
  /**
   * The last check before the write becomes visible. It runs once the temporary file is written
   * and flushed, synchronously and immediately before the rename, which is issued in the same
   * step (nothing else of this process runs in between). Throwing cancels the write: the
   * temporary file is removed, the target is left as it is, and the error is thrown. Use it to
   * compare the target with what the caller read (compare-and-swap against writers without the
   * caller's lock).
   */
  beforeRename?: () => void;
  /**
   * Cancels the write while it can still be undone: checked before the temporary file is made
   * and again immediately before the rename (with `beforeRename`); once aborted, the write
   * throws the signal's reason and leaves the target and no temporary file behind. An abort
   * after the rename changes nothing: the write is complete.
   */
  signal?: AbortSignal;
  /**
   * Default true: the file and its folder are flushed to disk (fsync) before and after the
   * rename, so the new content survives a power loss. False for a cache whose entries are checked
   * when read (a torn or lost entry is only a miss): the write is still atomic for every reader.
   */
  durable?: boolean;
}

/** Runs the caller's last checks; true when there were any (the rename then runs synchronously). */
function checkBeforeRename(options: WriteFileAtomicOptions): boolean {
  options.signal?.throwIfAborted();
  options.beforeRename?.();
  return options.signal !== undefined || options.beforeRename !== undefined;
}

/**
 * A fresh name next to `path` in the form of this module's temporary files, so a file left
 * there by a process that died (a hard link a caller keeps during a write, say) is removed by
 * the next write into the folder, like a stray temporary file.
 */
export function atomicWriteTempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

const tempPathFor = atomicWriteTempPath;

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): Promise<void> {
  options.signal?.throwIfAborted();
  const dir = dirname(path);
  const temp = tempPathFor(path);
  const mode =
    options.mode ??
    (await stat(path).then(
      (info) => info.mode & 0o777,
      () => 0o644,
    ));
  const handle = await open(temp, "wx", mode);
  try {
    if (options.mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(data);
    if (options.durable !== false) await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    // After the checks, the rename goes out at once (no turn of the event loop, no queue in
    // libuv's thread pool) so that the checked state is as fresh as it can be.
    if (checkBeforeRename(options)) renameSync(temp, path);
    else await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (options.durable !== false) await syncDirectory(dir);
  await removeOrphanedTemps(dir);
}

/** {@link writeFileAtomic}, blocking: the same temporary file, fsyncs, rename and clean-up. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): void {
  options.signal?.throwIfAborted();
  const dir = dirname(path);
  const temp = tempPathFor(path);
  let mode = options.mode;
  if (mode === undefined) {
    try {
      mode = statSync(path).mode & 0o777;
    } catch {
      mode = 0o644;
    }
  }
  const fd = openSync(temp, "wx", mode);
  try {
    if (options.mode !== undefined) fchmodSync(fd, mode);
    writeFileSync(fd, data);
    if (options.durable !== false) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    checkBeforeRename(options);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (options.durable !== false) syncDirectorySync(dir);
  removeOrphanedTempsSync(dir);
}

/** Whether `name` in a folder is a temporary file of a writer that is gone. */
function isOrphanedTemp(name: string): boolean {
  const pid = TEMP_NAME.exec(name)?.[1];
  return pid !== undefined && Number(pid) !== process.pid && !isProcessAlive(Number(pid));
}

/**
 * Removes the temporary files in `dir` of writers that died between creating and renaming them
 * (kill -9, power loss). A live writer's file is never touched. Best effort: a failure here
 * does not fail the write that already succeeded.
 */
async function removeOrphanedTemps(dir: string): Promise<void> {
  try {
    for (const name of await readdir(dir)) {
      if (isOrphanedTemp(name)) await rm(join(dir, name), { force: true });
    }
  } catch {
    // An unreadable folder keeps its stray files; the write itself is done.
  }
}

function removeOrphanedTempsSync(dir: string): void {
  try {
    for (const name of readdirSync(dir)) {
      if (isOrphanedTemp(name)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // As above.
  }
}

/** Makes the rename durable; some platforms cannot fsync a directory, which is harmless. */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // EISDIR / EPERM / EINVAL on platforms without directory fsync.
  } finally {
    await handle?.close();
  }
}

/** fsync a directory so a rename or link in it is durable; a no-op where the platform cannot. */
export function syncDirectorySync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // As above.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
