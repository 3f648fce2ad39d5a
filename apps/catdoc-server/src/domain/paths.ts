/** Where a CatDoc project keeps its files, and the guard that keeps paths inside the root. */
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CatDocForbiddenError } from "./errors.js";

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

/** True when `candidate` (absolute) is `root` or lies below it. */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Resolves a user-given path against the root and refuses anything outside it, symlinks
 * included: the path itself, when it exists, or else its nearest existing ancestor is resolved
 * with realpath and must lie inside the real root — so a path that does not exist yet under a
 * symlinked folder leading out (a place to write) is refused too, and so is a dangling symlink.
 * Returns the real path (for a missing path: the real ancestor joined with the rest).
 */
export async function resolveInsideRoot(root: string, userPath: string): Promise<string> {
  const absolute = resolve(root, userPath);
  if (!isInside(root, absolute)) {
    throw new CatDocForbiddenError(`Path '${userPath}' is outside the project root`, { path: userPath, root });
  }
  const realRoot = await realpath(root).catch(() => root);
  const real = await realPathOfNearest(absolute);
  if (real === undefined || !isInside(realRoot, real)) {
    throw new CatDocForbiddenError(`Path '${userPath}' resolves outside the project root`, { path: userPath, root });
  }
  return real;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest; undefined for a dangling symlink. */
async function realPathOfNearest(path: string): Promise<string | undefined> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await realpath(current), ...rest);
    } catch (error) {
      if (!isMissing(error)) throw error;
      // A link whose target is missing: where a write through it would land cannot be checked.
      if (await lstat(current).then((info) => info.isSymbolicLink(), () => false)) return undefined;
      const parent = dirname(current);
      if (parent === current) return path;
      rest.unshift(basename(current));
      current = parent;
    }
  }
}
