/**
 * The commit of category.yaml: how the store puts a new text in place without losing a save made
 * by a program that does not take catdoc's lock (an editor), and how a commit interrupted by a
 * kill -9 is recovered.
 *
 * rename(2) over category.yaml cannot be made conditional, and Node offers no atomic exchange of
 * two names (renameat2's RENAME_EXCHANGE), so the commit never renames onto category.yaml. It
 * takes the file away, checks what it took, and puts the new text in place with link(2), which
 * fails when the name exists:
 *
 *   0. (pre-check) category.yaml still holds the bytes the edit read (sha256) — else CONFLICT;
 *   1. rename(category.yaml → stash): the take-over. From here on a save by rename lands on a new
 *      category.yaml, and a save in place into the old file is caught in step 4;
 *   2. the stash is the file checked in step 0 (device, inode, size, modification time) — else an
 *      editor saved in between: link(stash → category.yaml) puts its save back (EEXIST: it saved
 *      again, the newer save stands) and the edit answers CONFLICT, nothing written;
 *   3. link(temp → category.yaml) — the commit point. EEXIST: an editor saved while the name was
 *      free; its file stands, the edit answers CONFLICT, nothing written;
 *   4. the stash still holds the checked bytes (an editor that saves in place may have had it open
 *      since before step 1) — else the new file is withdrawn (renamed away) and the stash linked
 *      back, with CONFLICT;
 *   5. unlink the stash and the temporary name.
 *
 * Steps 0–5 run in one synchronous block (nothing else of this process runs in between). Between
 * steps 1 and 3 category.yaml does not exist, for the time of an open, an fstat and a link
 * (microseconds): a reader that finds it missing while a live process's stash exists waits for it
 * (see {@link inspectMissing}); a reader that finds a stash of a process that is gone restores it
 * under the project lock ({@link restoreFromStash}). Writers hold the lock, so no writer takes the
 * file over while a restore runs, and a restore can never put an older stash over a newer file
 * (link(2) again).
 *
 * Every interleaving with one commit (writers through the store hold the lock, so another catdoc
 * writer meets a commit only if it took the lock over as stale; it then behaves as an editor
 * saving by rename, below, and its own commit is exclusive the same way):
 *
 * | The other program's action lands …         | Editor saving by rename (new file)              | Editor saving in place (same file)                  |
 * |--------------------------------------------|-------------------------------------------------|-----------------------------------------------------|
 * | before step 0's read                       | hash differs → CONFLICT, nothing written        | same                                                |
 * | between step 0 and step 1                  | step 1 takes its file; step 2: other inode →    | step 2: size/mtime differ → put back, CONFLICT; a   |
 * |                                            | put back (link), CONFLICT                       | same-size write in the same clock tick → step 4     |
 * | between step 1 and step 3 (name free)      | creates category.yaml → step 3 EEXIST: its file | by path: creates a new category.yaml → as on the    |
 * |                                            | stands, CONFLICT, nothing written               | left; through a descriptor opened before step 1:    |
 * |                                            |                                                 | writes the stash → step 4: put back, CONFLICT       |
 * | between step 3 and step 4's read           | replaces the new file: a later save, it stands  | by path: writes the new file, a later save; into    |
 * |                                            | (catdoc's edit is what it overwrote)            | the stash → step 4: withdraw ours, put it back      |
 * | during the withdraw (step 4 put-back)      | its file is what was withdrawn → linked back,   | —                                                   |
 * |                                            | it stands (a newer save than the in-place one)  |                                                     |
 * | after step 4's read                        | a later save; stands                            | by path: a later save; into the stash through a     |
 * |                                            |                                                 | descriptor opened before step 1 and written only    |
 * |                                            |                                                 | after step 4: lost — the one window left (below)    |
 *
 * The one window left needs an editor that opened category.yaml before step 1 and wrote nothing
 * to it until after step 4 read the stash — a few microseconds for editors that open, truncate and
 * write in one go; it is the same for any program that replaces a file another program holds open.
 * (An edit that read the file empty — truncated, not yet written — would meet it most; the store
 * reads an empty file again for up to 100 ms first, see CatDocStore.)
 *
 * A kill -9 between the steps: after step 1 or 2, category.yaml is missing and the stash of a
 * process that is gone holds it: the next reader or writer restores it (under the lock). After
 * step 3 or 4 (or inside a put-back), category.yaml exists: the stash and temporary names left
 * behind (of processes that are gone) are removed by the next commit or restore. A put-back interrupted after its withdraw leaves category.yaml missing and
 * the stash holding the editor's save: restored the same way.
 *
 * On a file system without hard links (link(2) fails with EPERM, ENOTSUP…) steps 2, 3 and the
 * restores fall back to rename(2) after checking the name is free: the micro-window of a plain
 * rename comes back there.
 */
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fstatSync, linkSync, lstatSync, openSync, readFileSync, readdirSync, renameSync, rmSync } from "node:fs";
import type { BigIntStats } from "node:fs";
import { open, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { atomicWriteTempPath, errnoCode, isProcessAlive, syncDirectorySync } from "@local-mcp/core/files";
import { CatDocConflictError } from "../errors.js";
import { contentVersion } from "../project-files.js";

/** The points between the commit's steps, in order; `withdrawn` only on a put-back after step 3. */
export type CommitStep = "checked-before" | "stashed" | "checked" | "linked" | "withdrawn" | "verified";

export interface CommitOptions {
  /** Checked last before step 1: aborted, nothing is written (the signal's reason is thrown). */
  signal?: AbortSignal;
  /** Throws when the caller no longer holds its lock; checked last before step 1. */
  assertLocked?: () => void;
  /** Called synchronously after each step (tests act there: an editor's save, a kill -9). */
  afterStep?: (step: CommitStep) => void;
}

/** What a commit did when it did not throw. */
export type CommitOutcome =
  /** The new text is category.yaml. */
  | "written"
  /** It was, then a save made after step 3 replaced it (that save is the newest and stands). */
  | "superseded";

/** `.<file>.<pid>.<ms>.<12 hex>.stash`: the take-over of step 1. Not core's temporary-file form, so core's clean-up never removes one. */
const STASH_NAME = /^\.(.+)\.(\d+)\.(\d+)\.[0-9a-f]{12}\.stash$/;

interface Stash {
  path: string;
  pid: number;
  time: number;
}

function stashPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.${randomBytes(6).toString("hex")}.stash`);
}

/** The stashes of `file`, newest first. */
function listStashes(file: string): Stash[] {
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return [];
  }
  const target = basename(file);
  const stashes: Stash[] = [];
  for (const name of names) {
    const match = STASH_NAME.exec(name);
    if (match?.[1] !== target) continue;
    stashes.push({ path: join(dirname(file), name), pid: Number(match[2]), time: Number(match[3]) });
  }
  return stashes.sort((a, b) => b.time - a.time || (a.path < b.path ? 1 : -1));
}

/**
 * Whether a stash's process may still be inside its commit. This process's own stashes never are
 * when anyone looks (a commit is one synchronous block): they are leftovers of a failed clean-up.
 */
function isLiveOwner(pid: number): boolean {
  return pid !== process.pid && isProcessAlive(pid);
}

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** link(2) errors that mean this file system has no hard links (or refuses this one). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Gives `from`'s file the name `to` unless `to` exists: true when it did. link(2) is exclusive;
 * without hard links, a rename after checking that `to` is free (not exclusive).
 */
function linkExclusive(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EEXIST") return false;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
    if (exists(to)) return false;
    renameSync(from, to);
    return true;
  }
}

function sameFile(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

function conflict(message: string, expectedVersion: string, actualVersion?: string | null): CatDocConflictError {
  return new CatDocConflictError(message, actualVersion === undefined ? { expectedVersion } : { expectedVersion, actualVersion });
}

const NOTHING_WRITTEN = "category.yaml changed on disk during the edit (saved by another program?); nothing was written";
const PUT_BACK =
  "category.yaml was saved by another program while this edit replaced it; its save was put back and this edit was not applied";

/**
 * Writes `text` to a temporary file next to `file`, flushes it, and commits it over `file` if
 * `file` still holds the bytes whose sha256 is `readVersion` (see the file comment). The caller
 * holds the project lock. Throws CONFLICT (nothing of this edit stays, and no save of another
 * program is lost), or the signal's reason when cancelled before the commit point.
 */
export async function commitCategoryFile(
  file: string,
  text: string,
  readVersion: string,
  options: CommitOptions = {},
): Promise<CommitOutcome> {
  options.signal?.throwIfAborted();
  removeLeftovers(file);
  const mode = await stat(file).then(
    (info) => info.mode & 0o777,
    () => 0o644,
  );
  const temp = atomicWriteTempPath(file);
  const handle = await open(temp, "wx", mode);
  let ours: BigIntStats;
  try {
    await handle.writeFile(text);
    await handle.sync();
    ours = await handle.stat({ bigint: true });
  } catch (error) {
    await handle.close();
    rmSync(temp, { force: true });
    throw error;
  }
  await handle.close();
  let outcome: CommitOutcome;
  try {
    outcome = commitSync(file, temp, ours, readVersion, options);
  } finally {
    rmSync(temp, { force: true });
  }
  syncDirectorySync(dirname(file));
  return outcome;
}

/** Steps 0–5, synchronously. */
function commitSync(file: string, temp: string, ours: BigIntStats, readVersion: string, options: CommitOptions): CommitOutcome {
  const afterStep = options.afterStep ?? (() => undefined);
  options.signal?.throwIfAborted();
  options.assertLocked?.();
  const checked = fileWithVersion(file, readVersion);
  afterStep("checked-before");

  // 1. The take-over.
  const stash = stashPath(file);
  try {
    renameSync(file, stash);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") throw conflict(NOTHING_WRITTEN, readVersion, null);
    throw error;
  }
  let committed = false;
  let fd: number | undefined;
  try {
    afterStep("stashed");
    // 2. What was taken is what was checked (else its save goes back: see the catch).
    fd = openSync(stash, "r");
    if (!sameFile(fstatSync(fd, { bigint: true }), checked)) throw conflict(NOTHING_WRITTEN, readVersion);
    afterStep("checked");
    // 3. The commit point.
    if (!linkExclusive(temp, file)) {
      rmSync(stash, { force: true });
      throw conflict(NOTHING_WRITTEN, readVersion);
    }
    committed = true;
    afterStep("linked");
    // 4. Nothing was written into the taken file since it was checked.
    const now = fstatSync(fd, { bigint: true });
    const outcome =
      sameFile(now, checked) && contentVersion(readFileSync(fd)) === readVersion
        ? "written"
        : withdraw(file, stash, ours, readVersion, afterStep);
    afterStep("verified");
    // 5.
    rmSync(stash, { force: true });
    return outcome;
  } catch (error) {
    // Failed before the commit point: category.yaml must not stay missing, the taken file goes back.
    if (!committed && exists(stash)) putBack(stash, file);
    throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Step 0: `file`'s identity, when it holds exactly the bytes of `version` (else CONFLICT). */
function fileWithVersion(file: string, version: string): BigIntStats {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    throw conflict(NOTHING_WRITTEN, version, null);
  }
  let read: BigIntStats;
  let bytes: Buffer;
  try {
    read = fstatSync(fd, { bigint: true });
    bytes = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  const actual = contentVersion(bytes);
  if (actual !== version) throw conflict(NOTHING_WRITTEN, version, actual);
  const now = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  if (now === undefined || !sameFile(now, read)) throw conflict(NOTHING_WRITTEN, version, "changed while it was checked");
  return read;
}

/** Puts the stash back as `file` unless a newer `file` exists (that one stands); drops the stash name. */
function putBack(stash: string, file: string): void {
  linkExclusive(stash, file);
  rmSync(stash, { force: true });
}

/**
 * Step 4 found the taken file written since it was checked (a save in place): takes the new file
 * away again and puts the saved one back — with CONFLICT. If what it takes away is not the new
 * file but a save made since step 3, that save is the newest: it goes back and the edit stands as
 * written-then-replaced.
 */
function withdraw(
  file: string,
  stash: string,
  ours: BigIntStats,
  readVersion: string,
  afterStep: (step: CommitStep) => void,
): CommitOutcome {
  const withdrawn = atomicWriteTempPath(file);
  let taken = true;
  try {
    renameSync(file, withdrawn);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
    taken = false;
  }
  afterStep("withdrawn");
  const was = taken ? lstatSync(withdrawn, { bigint: true }) : undefined;
  if (was !== undefined && (was.dev !== ours.dev || was.ino !== ours.ino)) {
    putBack(withdrawn, file);
    return "superseded";
  }
  putBack(stash, file);
  rmSync(withdrawn, { force: true });
  throw conflict(PUT_BACK, readVersion);
}

/** core's temporary-file form (`atomicWriteTempPath`): new texts and withdrawn files of this module. */
const TEMP_NAME = /^\.(.+)\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/**
 * While `file` exists: removes the stashes (older versions) and temporary files of `file` left by
 * processes that are gone — a commit killed after its step 3, or a put-back after its withdraw.
 */
function removeLeftovers(file: string): void {
  if (!exists(file)) return;
  for (const stash of listStashes(file)) {
    if (!isLiveOwner(stash.pid)) rmSync(stash.path, { force: true });
  }
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (match?.[1] === basename(file) && !isLiveOwner(Number(match[2])) && Number(match[2]) !== process.pid)
      rmSync(join(dirname(file), name), { force: true });
  }
}

/** What a reader that found `file` missing is looking at. */
export type MissingFile =
  /** It exists (again). */
  | { kind: "present" }
  /** It does not, and no commit holds it: the project is not initialized. */
  | { kind: "absent" }
  /** A live process is between steps 1 and 3 (or stalled there): wait for it. */
  | { kind: "in-commit"; stash: string }
  /** A process that is gone left it stashed: restore it under the lock ({@link restoreFromStash}). */
  | { kind: "orphaned"; stash: string };

/**
 * Looks again at a `file` found missing. Absent needs the name missing, no stash, and the name
 * still missing after the listing: a commit that ended meanwhile has its file back before it
 * removes its stash, and commits are serialized by the lock, so no other one can start in
 * between.
 */
export function inspectMissing(file: string): MissingFile {
  // Readable, that is: a symbolic link to nothing is as missing as no file.
  const readable = () => existsSync(file);
  if (readable()) return { kind: "present" };
  const newest = listStashes(file)[0];
  if (newest === undefined) return readable() ? { kind: "present" } : { kind: "absent" };
  if (readable()) return { kind: "present" };
  return isLiveOwner(newest.pid) ? { kind: "in-commit", stash: newest.path } : { kind: "orphaned", stash: newest.path };
}

/**
 * Under the project lock: when `file` is missing, links the newest stash of a process that is
 * gone (with `includeLive`, of any process: a holder whose lock was taken over as stale and that
 * is stalled in its commit — its own link then fails and it answers CONFLICT) back as `file`;
 * then removes what processes that are gone left (stashes, temporary files). Returns whether `file` exists.
 */
export function restoreFromStash(file: string, options: { includeLive?: boolean } = {}): boolean {
  if (!exists(file)) {
    const stash = listStashes(file).find((candidate) => options.includeLive === true || !isLiveOwner(candidate.pid));
    if (stash !== undefined) {
      try {
        linkExclusive(stash.path, file);
      } catch (error) {
        // ENOENT: the stash went meanwhile (its owner finished); look again.
        if (errnoCode(error) !== "ENOENT") throw error;
      }
      syncDirectorySync(dirname(file));
    }
  }
  removeLeftovers(file);
  return exists(file);
}
