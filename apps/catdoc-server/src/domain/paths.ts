/** Where a CatDoc project keeps its files; paths are kept inside the root by core's path guard. */
import { realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  ConfinementError,
  confinePath,
  openConfined,
  pathErrorFrom as corePathErrorFrom,
  quotePath,
  type PathErrorContext,
} from "@local-mcp/core/files";
import { CatDocForbiddenError, CatDocInputError } from "./errors.js";

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

/** How catdoc's path errors name things: the argument (`field`) and "the project root". */
function catdocPathContext(field: string): PathErrorContext {
  return {
    field,
    place: "the project root",
    forbiddenSuggestion: "Use a path inside the project (relative paths start at the project root).",
    notFound: (given) => ({ message: `File or directory '${quotePath(given)}' not found in the project` }),
  };
}

/**
 * A file-system error met on `userPath` (given in `field`) as a coded error (core's pathErrorFrom:
 * missing → NOT_FOUND, a name too long or invalid → INVALID_INPUT, a loop of symbolic links →
 * NOT_FOUND, no permission → FORBIDDEN). Anything else (an I/O failure) is returned unchanged.
 */
export function pathErrorFrom(error: unknown, userPath: string, field: string): unknown {
  return corePathErrorFrom(error, userPath, catdocPathContext(field));
}

/**
 * Resolves a user-given path against the root and refuses anything outside it, symlinks
 * included (core's confinePath: the path, or its nearest existing ancestor, resolved with
 * realpath must lie inside the real root; a dangling symlink is refused too). A path with a NUL
 * character or too long for the file system is INVALID_INPUT naming `field` (the tool argument it
 * came from). Returns the real path (for a missing path: the real ancestor joined with the rest).
 */
export function resolveInsideRoot(root: string, userPath: string, field = "path"): Promise<string> {
  return confinePath([root], userPath, catdocPathContext(field));
}

/**
 * Reads a file of the project confined by what was OPENED, not by what was checked: `path`
 * (normally from resolveInsideRoot) is opened, the opened file's real path must lie inside the
 * real root (core's openConfined), and the bytes come from that descriptor — so a file swapped
 * for a symbolic link to a secret between the check and the read is refused (FORBIDDEN), never
 * read. Not a regular file, or above `maxBytes`: INVALID_INPUT; file-system errors as in
 * `pathErrorFrom`.
 */
export async function readInsideRoot(
  root: string,
  path: string,
  options: { userPath?: string; field?: string; maxBytes?: number } = {},
): Promise<Buffer> {
  const userPath = options.userPath ?? path;
  const realRoot = await realpath(root).catch(() => root);
  let opened;
  try {
    opened = await openConfined(path, [realRoot]);
  } catch (error) {
    if (error instanceof ConfinementError)
      throw new CatDocForbiddenError(`Path '${userPath}' resolves outside the project root`, { path: userPath, root });
    throw pathErrorFrom(error, userPath, options.field ?? "path");
  }
  try {
    if (!opened.stats.isFile()) throw new CatDocInputError(`'${quotePath(userPath)}' is not a regular file`, { path: userPath });
    if (options.maxBytes !== undefined && opened.stats.size > options.maxBytes) {
      throw new CatDocInputError(`'${quotePath(userPath)}' is larger than ${options.maxBytes} bytes`, {
        path: userPath,
        maxBytes: options.maxBytes,
      });
    }
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}
