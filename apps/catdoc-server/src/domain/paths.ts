/** Where a CatDoc project keeps its files, and the guard that keeps paths inside the root. */
import { realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
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
 * included (both sides are resolved with realpath when the file exists).
 */
export async function resolveInsideRoot(root: string, userPath: string): Promise<string> {
  const absolute = resolve(root, userPath);
  if (!isInside(root, absolute)) {
    throw new CatDocForbiddenError(`Path '${userPath}' is outside the project root`, { path: userPath, root });
  }
  const realRoot = await realpath(root).catch(() => root);
  const real = await realpath(absolute).catch(() => undefined);
  if (real !== undefined && !isInside(realRoot, real)) {
    throw new CatDocForbiddenError(`Path '${userPath}' resolves outside the project root`, { path: userPath, root });
  }
  return real ?? absolute;
}
