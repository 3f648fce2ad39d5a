/**
 * The one path guard: every path a client hands a server stays under the server's roots. A path
 * is taken relative to the first root; it must lie under a root lexically or really, and the real
 * path of its deepest existing part (realpath, so symbolic links are followed) must lie under a
 * real root — a link leading out, a folder linked out with a path below it that does not exist
 * yet (a place to write), and a dangling link (where a write through it lands cannot be checked)
 * are FORBIDDEN. A path no file system takes (empty, a NUL character, above PATH_MAX) is
 * INVALID_INPUT, and the file system's own errors get codes (pathErrorFrom) — never INTERNAL.
 * Reading what was checked, confined by what was opened, is confined-open.ts.
 */
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { ToolError } from "../errors.js";
import { isPathInside } from "./confined-open.js";
import { errnoCode, isMissingPathError } from "./errno.js";

/** Longest path Linux takes (PATH_MAX, NUL included); a longer one names no file. */
export const MAX_PATH_BYTES = 4095;
/** How much of an unusable path a message quotes. */
const QUOTED_CHARS = 120;

/** How a server names things in its path errors. */
export interface PathErrorContext {
  /** The tool argument the path came from: messages start with `<field>: ` and details carry it. */
  field?: string | undefined;
  /** What the roots are to the user, in FORBIDDEN messages ("the project root"; default "the allowed roots"). */
  place?: string | undefined;
  /** How FORBIDDEN says a path leads out through a link (default "resolves outside"). */
  resolvesOutside?: string | undefined;
  /** What to do instead of a refused path (FORBIDDEN's suggestion). */
  forbiddenSuggestion?: string | undefined;
  /** The NOT_FOUND message and suggestion for a missing path (default: `File or folder '<path>' not found`). */
  notFound?: ((given: string) => { message: string; suggestion?: string }) | undefined;
}

/** The start of a path, for messages about paths too long to quote whole. */
export function quotePath(path: string): string {
  return path.length <= QUOTED_CHARS ? path : `${path.slice(0, QUOTED_CHARS)}… (${path.length} characters)`;
}

function prefixed(context: PathErrorContext, text: string): string {
  return context.field === undefined ? text : `${context.field}: ${text}`;
}

function details(given: string, context: PathErrorContext, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { path: given, ...(context.field === undefined ? {} : { field: context.field }), ...more };
}

function tooLong(given: string, why: string, context: PathErrorContext): ToolError {
  return new ToolError("INVALID_INPUT", prefixed(context, `Path '${quotePath(given)}' ${why}.`), {
    suggestion: `Pass a shorter path: at most ${MAX_PATH_BYTES} bytes in all and 255 bytes per file or folder name.`,
    details: details(given, context, { maxPathBytes: MAX_PATH_BYTES }),
  });
}

/** Refuses, as INVALID_INPUT, a path no file system takes: empty, with a NUL character, or above PATH_MAX. */
export function checkPathShape(given: string, context: PathErrorContext = {}): void {
  if (given.length === 0)
    throw new ToolError("INVALID_INPUT", prefixed(context, "An empty path was given."), { details: details(given, context) });
  if (given.includes("\0")) {
    throw new ToolError("INVALID_INPUT", prefixed(context, "A path contains a NUL character."), { details: details(given, context) });
  }
  const bytes = Buffer.byteLength(given);
  if (bytes > MAX_PATH_BYTES) throw tooLong(given, `is ${bytes} bytes long, above the ${MAX_PATH_BYTES}-byte limit of file paths`, context);
}

/**
 * A file-system error met on `given` as a coded error: missing (ENOENT, ENOTDIR) → NOT_FOUND, a
 * name too long (ENAMETOOLONG) or invalid (EINVAL) → INVALID_INPUT, a loop of symbolic links
 * (ELOOP) → NOT_FOUND saying so, no permission (EACCES, EPERM) → FORBIDDEN. Anything else (an I/O
 * failure) is not the caller's doing and is returned unchanged.
 */
export function pathErrorFrom(error: unknown, given: string, context: PathErrorContext = {}): unknown {
  switch (errnoCode(error)) {
    case "ENOENT":
    case "ENOTDIR": {
      const found = context.notFound?.(given) ?? { message: prefixed(context, `File or folder '${quotePath(given)}' not found.`) };
      return new ToolError("NOT_FOUND", found.message, {
        ...(found.suggestion === undefined ? {} : { suggestion: found.suggestion }),
        details: details(given, context),
      });
    }
    case "ENAMETOOLONG":
      return tooLong(given, "is too long for the file system (a name above 255 bytes, or the whole path above 4,095)", context);
    case "EINVAL":
      return new ToolError("INVALID_INPUT", prefixed(context, `Path '${quotePath(given)}' is not a valid file path.`), {
        details: details(given, context),
      });
    case "ELOOP":
      return new ToolError(
        "NOT_FOUND",
        prefixed(context, `Path '${quotePath(given)}' cannot be resolved: its symbolic links form a loop.`),
        {
          suggestion: "Name the file or folder itself rather than a path through the looping symbolic link, or fix the link.",
          details: details(given, context),
        },
      );
    case "EACCES":
    case "EPERM":
      return new ToolError(
        "FORBIDDEN",
        prefixed(context, `Permission denied on '${quotePath(given)}': this server's user may not use it.`),
        {
          recoverable: false,
          suggestion: "Use a path this server's user may read (or write, for an output path), or fix its permissions.",
          details: details(given, context),
        },
      );
    default:
      return error;
  }
}

/** FORBIDDEN: `Path '<given>' <why> <place>` (why: "is outside", "resolves outside"). */
export function pathForbidden(given: string, why: string, roots: readonly string[], context: PathErrorContext = {}): ToolError {
  return new ToolError("FORBIDDEN", `Path '${quotePath(given)}' ${why} ${context.place ?? "the allowed roots"}`, {
    recoverable: false,
    suggestion: context.forbiddenSuggestion ?? "Use a path inside the allowed roots (relative paths start at the first root).",
    details: details(given, context, { roots: [...roots] }),
  });
}

/**
 * The real path of `path`'s deepest existing part and the names below it that do not exist yet;
 * undefined when that part is a symbolic link whose target is missing (a dangling link). The
 * file system's errors other than "missing" (ELOOP, EACCES…) are thrown as they are.
 */
export async function realPathOfNearest(path: string): Promise<{ real: string; rest: string[] } | undefined> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return { real: await realpath(current), rest };
    } catch (error) {
      if (!isMissingPathError(error)) throw error;
      if (
        await lstat(current).then(
          (info) => info.isSymbolicLink(),
          () => false,
        )
      )
        return undefined;
      const parent = dirname(current);
      if (parent === current) throw error;
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

export interface ConfineOptions extends PathErrorContext {
  /** The path must exist (else NOT_FOUND); otherwise a path to be created is fine. */
  mustExist?: boolean;
}

/** Whether `candidate` lies under one of `roots`. */
export function isInsideAny(roots: readonly string[], candidate: string): boolean {
  return roots.some((root) => isPathInside(root, candidate));
}

/**
 * `given` (relative to `roots[0]`, or absolute) resolved and confined to `roots`: the real path
 * when it exists, else the real path of its deepest existing ancestor joined with the rest. Throws
 * coded ToolErrors: INVALID_INPUT for a path no file system takes, FORBIDDEN for a path outside
 * (lexically or through a symbolic link, a dangling one included), NOT_FOUND when `mustExist` and
 * it does not, and the codes of pathErrorFrom for the file system's errors. A path outside is
 * refused without saying whether it exists.
 */
export async function confinePath(roots: readonly string[], given: string, options: ConfineOptions = {}): Promise<string> {
  if (roots.length === 0) throw new Error("confinePath needs at least one root");
  checkPathShape(given, options);
  const candidate = resolve(roots[0] as string, given);
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
  const lexicallyInside = isInsideAny(roots, candidate) || isInsideAny(realRoots, candidate);
  let nearest: { real: string; rest: string[] } | undefined;
  try {
    nearest = await realPathOfNearest(candidate);
  } catch (error) {
    // Outside: refused, and nothing said about what is there.
    if (!lexicallyInside) throw pathForbidden(given, "is outside", roots, options);
    throw pathErrorFrom(error, given, options);
  }
  if (nearest === undefined && options.mustExist === true && lexicallyInside) {
    // A dangling link names nothing to read.
    throw pathErrorFrom(Object.assign(new Error(`ENOENT: ${candidate}`), { code: "ENOENT" }), given, options);
  }
  if (nearest === undefined || !isInsideAny(realRoots, nearest.real)) {
    throw pathForbidden(given, lexicallyInside ? (options.resolvesOutside ?? "resolves outside") : "is outside", roots, options);
  }
  if (options.mustExist === true && nearest.rest.length > 0) {
    throw pathErrorFrom(Object.assign(new Error(`ENOENT: ${candidate}`), { code: "ENOENT" }), given, options);
  }
  return nearest.rest.length === 0 ? nearest.real : join(nearest.real, ...nearest.rest);
}
