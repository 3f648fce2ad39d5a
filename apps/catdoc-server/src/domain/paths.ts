/** Where a CatDoc project keeps its files, and the guard that keeps paths inside the root. */
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { isPathInside, ConfinementError, errnoCode, isMissingPathError, openConfined } from "@local-mcp/core";
import { CatDocError, CatDocForbiddenError, CatDocInputError, CatDocNotFoundError } from "./errors.js";

export interface ProjectPaths {
  /** Absolute project root. */
  root: string;
  /** `<root>/.catdoc` */
  catdocDir: string;
  /** `<root>/.catdoc/category.yaml` */
  categoryFile: string;
  /** `<root>/.catdoc/config.yaml` */
  configFile: string;
  /** `<root>/.catdoc/category.yaml.lock` (a directory while a writer holds the lock). */
  lockFile: string;
}

export function projectPaths(root: string): ProjectPaths {
  const absolute = resolve(root);
  const catdocDir = join(absolute, ".catdoc");
  return {
    root: absolute,
    catdocDir,
    categoryFile: join(catdocDir, "category.yaml"),
    configFile: join(catdocDir, "config.yaml"),
    lockFile: join(catdocDir, "category.yaml.lock"),
  };
}

/** True when `candidate` (absolute) is `root` or lies below it: core's one check, under this app's name. */
export const isInside = isPathInside;

/** Longest path Linux takes (PATH_MAX, NUL included); a longer one names no file. */
export const MAX_PATH_BYTES = 4095;
/** How much of an unusable path a message quotes. */
const QUOTED_CHARS = 120;

function quoted(path: string): string {
  return path.length <= QUOTED_CHARS ? path : `${path.slice(0, QUOTED_CHARS)}… (${path.length} characters)`;
}

function tooLong(field: string, userPath: string, why: string): CatDocInputError {
  return new CatDocInputError(`${field}: path '${quoted(userPath)}' ${why}; give at most ${MAX_PATH_BYTES} bytes, and at most 255 per name`, {
    field,
    path: userPath,
    maxPathBytes: MAX_PATH_BYTES,
  });
}

/** Refuses, as INVALID_INPUT naming `field`, a path no file system takes: a NUL character or above PATH_MAX. */
export function assertPathShape(userPath: string, field: string): void {
  if (userPath.includes("\0")) throw new CatDocInputError(`${field}: path contains a NUL character`, { field, path: userPath });
  const bytes = Buffer.byteLength(userPath);
  if (bytes > MAX_PATH_BYTES) throw tooLong(field, userPath, `is ${bytes} bytes long`);
}

/**
 * A file-system error met on `userPath` (given in `field`) as a coded CatDoc error: missing →
 * NOT_FOUND, a name too long or invalid → INVALID_INPUT, a loop of symbolic links → NOT_FOUND,
 * no permission → FORBIDDEN. Anything else (an I/O failure) is returned unchanged.
 */
export function pathErrorFrom(error: unknown, userPath: string, field: string): unknown {
  switch (errnoCode(error)) {
    case "ENOENT":
    case "ENOTDIR":
      return new CatDocNotFoundError("file", userPath, { message: `File or directory '${quoted(userPath)}' not found in the project` });
    case "ENAMETOOLONG":
      return tooLong(field, userPath, "is too long for the file system");
    case "EINVAL":
      return new CatDocInputError(`${field}: '${quoted(userPath)}' is not a valid file path`, { field, path: userPath });
    case "ELOOP":
      return new CatDocError("NOT_FOUND", `${field}: path '${quoted(userPath)}' cannot be resolved: its symbolic links form a loop`, {
        details: { kind: "file", id: userPath, field },
        suggestion: "Name the file or folder itself rather than a path through the looping symbolic link, or fix the link.",
      });
    case "EACCES":
    case "EPERM":
      return new CatDocError("FORBIDDEN", `${field}: permission denied on '${quoted(userPath)}'`, {
        details: { path: userPath, field },
        suggestion: "Use a file or folder the server can read, or fix its permissions.",
      });
    default:
      return error;
  }
}

/**
 * Resolves a user-given path against the root and refuses anything outside it, symlinks
 * included: the path itself, when it exists, or else its nearest existing ancestor is resolved
 * with realpath and must lie inside the real root — so a path that does not exist yet under a
 * symlinked folder leading out (a place to write) is refused too, and so is a dangling symlink.
 * A path with a NUL character or too long for the file system is INVALID_INPUT naming `field`
 * (the tool argument it came from); other file-system errors get codes as in `pathErrorFrom`.
 * Returns the real path (for a missing path: the real ancestor joined with the rest).
 */
export async function resolveInsideRoot(root: string, userPath: string, field = "path"): Promise<string> {
  assertPathShape(userPath, field);
  const absolute = resolve(root, userPath);
  if (!isInside(root, absolute)) {
    throw new CatDocForbiddenError(`Path '${userPath}' is outside the project root`, { path: userPath, root });
  }
  const realRoot = await realpath(root).catch(() => root);
  const real = await realPathOfNearest(absolute).catch((error: unknown) => {
    throw pathErrorFrom(error, userPath, field);
  });
  if (real === undefined || !isInside(realRoot, real)) {
    throw new CatDocForbiddenError(`Path '${userPath}' resolves outside the project root`, { path: userPath, root });
  }
  return real;
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest; undefined for a dangling symlink. */
async function realPathOfNearest(path: string): Promise<string | undefined> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await realpath(current), ...rest);
    } catch (error) {
      if (!isMissingPathError(error)) throw error;
      // A link whose target is missing: where a write through it would land cannot be checked.
      if (await lstat(current).then((info) => info.isSymbolicLink(), () => false)) return undefined;
      const parent = dirname(current);
      if (parent === current) return path;
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

/**
 * Reads a file of the project confined by what was OPENED, not by what was checked: `path`
 * (normally from resolveInsideRoot) is opened, the opened file's real path must lie inside the
 * real root (core's openConfined), and the bytes come from that descriptor — so a file swapped
 * for a symbolic link to a secret between the check and the read is refused (FORBIDDEN), never
 * read. Not a regular file, or above `maxBytes`: INVALID_INPUT; file-system errors as in
 * `pathErrorFrom`.
 */
export async function readInsideRoot(root: string, path: string, options: { userPath?: string; field?: string; maxBytes?: number } = {}): Promise<Buffer> {
  const userPath = options.userPath ?? path;
  const realRoot = await realpath(root).catch(() => root);
  let opened;
  try {
    opened = await openConfined(path, [realRoot]);
  } catch (error) {
    if (error instanceof ConfinementError) throw new CatDocForbiddenError(`Path '${userPath}' resolves outside the project root`, { path: userPath, root });
    throw pathErrorFrom(error, userPath, options.field ?? "path");
  }
  try {
    if (!opened.stats.isFile()) throw new CatDocInputError(`'${quoted(userPath)}' is not a regular file`, { path: userPath });
    if (options.maxBytes !== undefined && opened.stats.size > options.maxBytes) {
      throw new CatDocInputError(`'${quoted(userPath)}' is larger than ${options.maxBytes} bytes`, { path: userPath, maxBytes: options.maxBytes });
    }
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}
