/**
 * Opening and writing files confined to root directories without a check-then-open race.
 *
 * Checking a path (realpath inside the root) and then opening it by name lets another process
 * swap the file, or a folder on its way, for a symbolic link between the check and the open: the
 * open follows the link out of the root. So these functions confine what was OPENED: the file is
 * opened first, then the descriptor's own path is checked, and the content is read from that
 * same descriptor only.
 *
 * - Linux: the kernel names what a descriptor refers to in `/proc/self/fd/<fd>`; that real path
 *   must lie under a root. Writes go through the opened folder's descriptor
 *   (`/proc/self/fd/<fd>/<name>`), so a folder swapped for a link after the check cannot redirect
 *   them, and the final rename replaces a link rather than following it.
 * - Elsewhere (macOS, no /proc): after opening, the path is resolved again with realpath, which
 *   must lie under a root, and the descriptor's device and inode (fstat) must equal those of that
 *   real path (stat): a swap between open and check is seen as a mismatch and refused. Writes are
 *   made into the verified real folder; a swap in the instant between that check and the rename
 *   is not excluded there.
 *
 * Opening uses O_NONBLOCK (a FIFO does not block the open; the caller refuses what is not a
 * regular file) and O_NOCTTY. Symbolic links inside the roots are still followed: where they end
 * is what is checked.
 */
import { constants, existsSync, type Stats } from "node:fs";
import { open, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { writeFileAtomic, type WriteFileAtomicOptions } from "./atomic-write.js";

/** Why a confined open was refused: what was opened lies outside the roots, or changed while it was checked. */
export class ConfinementError extends Error {
  constructor(
    readonly path: string,
    readonly reason: "outside" | "changed",
    /** The real path of what was opened, when known. */
    readonly realPath?: string,
  ) {
    super(reason === "outside" ? `${path} resolves outside the allowed roots` : `${path} changed while it was being opened`);
    this.name = "ConfinementError";
  }
}

export interface ConfinedFile {
  /** Read from this handle only; the caller closes it. */
  handle: FileHandle;
  /** The real absolute path of what was opened. */
  realPath: string;
  /** fstat of the opened descriptor. */
  stats: Stats;
}

export interface OpenConfinedOptions {
  /** Open a folder (O_DIRECTORY) instead of a file. */
  directory?: boolean;
}

/** True when `candidate` (absolute) is `root` or lies below it. */
export function isPathInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const PROC_FD = "/proc/self/fd";
let procFdAvailable: boolean | undefined;

/** Whether descriptors can be named through /proc (Linux); checked once. */
function hasProcFd(): boolean {
  procFdAvailable ??= process.platform === "linux" && existsSync(PROC_FD);
  return procFdAvailable;
}

const DELETED = " (deleted)";

/**
 * Opens `path` for reading and verifies that what was opened lies under one of `roots` (real,
 * absolute paths). Throws ConfinementError when it does not, and the open's own errors (ENOENT,
 * EACCES, ELOOP…) as they are.
 */
export async function openConfined(path: string, roots: readonly string[], options: OpenConfinedOptions = {}): Promise<ConfinedFile> {
  const flags =
    constants.O_RDONLY | (constants.O_NOCTTY ?? 0) | (options.directory ? (constants.O_DIRECTORY ?? 0) : (constants.O_NONBLOCK ?? 0));
  const handle = await open(path, flags);
  try {
    const realPath = await openedPath(path, handle);
    if (!roots.some((root) => isPathInside(root, realPath))) throw new ConfinementError(path, "outside", realPath);
    const stats = await handle.stat();
    return { handle, realPath, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The real path of what `handle` (opened from `path`) refers to. */
async function openedPath(path: string, handle: FileHandle): Promise<string> {
  if (hasProcFd()) {
    let real = await readlink(`${PROC_FD}/${handle.fd}`);
    if (real.endsWith(DELETED)) real = real.slice(0, -DELETED.length);
    // Not a path at all (a pipe, a socket, an anonymous inode): nothing a root can hold.
    if (!isAbsolute(real)) throw new ConfinementError(path, "outside", real);
    return real;
  }
  const real = await realpath(path);
  const [opened, named] = await Promise.all([handle.stat(), stat(real)]);
  if (opened.dev !== named.dev || opened.ino !== named.ino) throw new ConfinementError(path, "changed", real);
  return real;
}

export interface WriteFileConfinedOptions extends WriteFileAtomicOptions {
  /**
   * Called with the real path the file will have, once its folder is opened and verified and
   * before anything is written: throw to refuse (e.g. a name the caller never writes).
   */
  check?: (realTarget: string) => void | Promise<void>;
}

/**
 * Writes `path` atomically (core's writeFileAtomic: a temporary file, fsync, rename) into its
 * folder, opened and verified first to lie under `roots`; on Linux every step goes through the
 * folder's descriptor, so nothing outside the roots is written even if the folder is swapped
 * for a symbolic link meanwhile. The folder must exist. Returns the real path written.
 */
export async function writeFileConfined(
  path: string,
  data: string | Uint8Array,
  roots: readonly string[],
  options: WriteFileConfinedOptions = {},
): Promise<string> {
  const name = basename(path);
  if (name === "" || name === "." || name === "..") throw new ConfinementError(path, "outside");
  const folder = await openConfined(dirname(path), roots, { directory: true });
  try {
    const realTarget = join(folder.realPath, name);
    await options.check?.(realTarget);
    const through = hasProcFd() ? join(`${PROC_FD}/${folder.handle.fd}`, name) : realTarget;
    const { check: _check, ...atomic } = options;
    await writeFileAtomic(through, data, atomic);
    return realTarget;
  } finally {
    await folder.handle.close();
  }
}
