/**
 * The cross-process write lock of a project: a `category.yaml.lock` directory in `.catdoc`,
 * taken with proper-lockfile (atomic mkdir, refreshed while held, considered stale after
 * `staleMs` when its holder died). Writers wait their turn with retries; one that cannot get
 * the lock in time fails with CONFLICT.
 */
import lockfile from "proper-lockfile";
import { CatDocConflictError } from "../errors.js";
import type { ProjectPaths } from "../paths.js";

export interface LockOptions {
  /** How many times to retry a held lock (default 100, with backoff up to 200 ms). */
  retries?: number;
  /** A lock not refreshed for this long is taken over (default 10 s). */
  staleMs?: number;
}

export interface LockGuard {
  /** Throws CONFLICT if the lock was lost (taken over as stale) while held. */
  assertHeld(): void;
}

export async function withProjectLock<T>(paths: ProjectPaths, work: (guard: LockGuard) => Promise<T>, options: LockOptions = {}): Promise<T> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(paths.catdocDir, {
      lockfilePath: paths.lockFile,
      realpath: false,
      stale: options.staleMs ?? 10_000,
      retries: { retries: options.retries ?? 100, minTimeout: 10, maxTimeout: 200, factor: 1.3, randomize: true },
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ELOCKED") {
      throw new CatDocConflictError("category.yaml is being written by another process; try again", { lockFile: paths.lockFile });
    }
    throw error;
  }
  const guard: LockGuard = {
    assertHeld() {
      if (compromised !== undefined) {
        throw new CatDocConflictError(`Lost the write lock on category.yaml: ${compromised.message}`, { lockFile: paths.lockFile });
      }
    },
  };
  try {
    return await work(guard);
  } finally {
    await release().catch(() => undefined);
  }
}
