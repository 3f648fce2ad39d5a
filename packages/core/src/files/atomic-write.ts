/**
 * Atomic replacement of a file: write a temporary file next to it, fsync it, rename it over
 * the target, fsync the directory. Readers see the old bytes or the new ones, never a mix,
 * and a crash leaves at most a stray temporary file — which the next successful write into the
 * same folder removes, once the process that made it is gone (its pid is in the name).
 * {@link writeFileAtomicSync} does the same for callers that cannot await.
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
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): Promise<void> {
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
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
  await removeOrphanedTemps(dir);
}

/** {@link writeFileAtomic}, blocking: the same temporary file, fsyncs, rename and clean-up. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): void {
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
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDirectorySync(dir);
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

function syncDirectorySync(dir: string): void {
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
