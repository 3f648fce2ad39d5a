/**
 * A cross-process lock: a lock file created with O_EXCL (`wx`), holding the owner's pid. Waiters
 * retry with jittered backoff; a lock older than `staleMs` (its holder died) is removed. Work
 * under the lock must be short: here, one read-merge-write of the stats file.
 */
import { open, rm, stat } from "node:fs/promises";

export interface FileLockOptions {
  /** Give up after this long (default 5 s). */
  timeoutMs?: number;
  /** A lock file older than this is considered abandoned (default 10 s). */
  staleMs?: number;
}

export class LockTimeoutError extends Error {
  override readonly name = "LockTimeoutError";
}

export async function withFileLock<T>(lockPath: string, work: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const staleMs = options.staleMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, "wx");
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(lockPath).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > staleMs) {
        await rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new LockTimeoutError(`Could not take ${lockPath} within ${timeoutMs} ms`);
      const wait = Math.min(50, 2 + attempt * 2) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockPath, { force: true });
  }
}
