/**
 * The cross-process write lock of a project: a `category.yaml.lock` directory in `.catdoc`
 * holding its holder's record (pid, hostname, start time), taken with core's directory lock.
 * A lock whose holder died on this host (kill -9) is taken over at once; one whose record was
 * not refreshed for `staleMs` (a holder on another host, an unreadable record) is taken over
 * then. Writers wait their turn; one that cannot get the lock in time fails with CONFLICT.
 */
import { LockTimeoutError, withDirectoryLock } from "@local-mcp/core/files";
import { CatDocConflictError } from "../errors.js";
import type { ProjectPaths } from "../paths.js";

export interface LockOptions {
  /** How long to wait for a held lock before CONFLICT (default 20 s). */
  timeoutMs?: number;
  /** A holder whose record was not refreshed for this long is taken over, alive or not (default 10 s). */
  staleMs?: number;
}

export interface LockGuard {
  /** Throws CONFLICT if the lock was lost (taken over as stale) while held. */
  assertHeld(): void;
}

export async function withProjectLock<T>(
  paths: ProjectPaths,
  work: (guard: LockGuard) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  try {
    return await withDirectoryLock(
      paths.lockFile,
      (lock) =>
        work({
          assertHeld() {
            if (!lock.isHeld()) {
              throw new CatDocConflictError("Lost the write lock on category.yaml: another writer took it over as stale", {
                lockFile: paths.lockFile,
              });
            }
          },
        }),
      { timeoutMs: options.timeoutMs ?? 20_000, staleMs: options.staleMs ?? 10_000 },
    );
  } catch (error) {
    if (error instanceof LockTimeoutError) {
      const holder =
        error.holder === undefined
          ? {}
          : { holder: { pid: error.holder.pid, hostname: error.holder.hostname, startedAt: error.holder.startedAt } };
      throw new CatDocConflictError("category.yaml is being written by another process; try again", {
        lockFile: paths.lockFile,
        ...holder,
      });
    }
    throw error;
  }
}
