/**
 * Atomic replacement of a file: write a temporary file next to it, fsync it, rename it over
 * the target, fsync the directory. Readers see the old bytes or the new ones, never a mix,
 * and a crash leaves at most a stray temporary file — which the next successful write into the
 * same folder removes, once the process that made it is gone (its pid is in the name).
 */
import { randomBytes } from "node:crypto";
import { open, readdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** `.<target>.<pid>.<12 hex>.tmp`: the temporary files this module makes. */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const mode = await stat(path).then(
    (info) => info.mode & 0o777,
    () => 0o644,
  );
  const handle = await open(temp, "wx", mode);
  try {
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

/** Whether a process with this pid exists (EPERM: it does, under another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temporary files in `dir` of writers that died between creating and renaming them
 * (kill -9, power loss). A live writer's file is never touched. Best effort: a failure here
 * does not fail the write that already succeeded.
 */
async function removeOrphanedTemps(dir: string): Promise<void> {
  try {
    for (const name of await readdir(dir)) {
      const pid = TEMP_NAME.exec(name)?.[1];
      if (pid === undefined || Number(pid) === process.pid || processAlive(Number(pid))) continue;
      await rm(join(dir, name), { force: true });
    }
  } catch {
    // An unreadable folder keeps its stray files; the write itself is done.
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
