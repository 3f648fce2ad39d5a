/**
 * Atomic replacement of a file: write a temporary file next to it, fsync it, rename it over
 * the target, fsync the directory. Readers see the old bytes or the new ones, never a mix,
 * and a crash leaves at most a stray temporary file.
 */
import { randomBytes } from "node:crypto";
import { open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

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
