/**
 * Path safety: every path a tool reads or writes resolves under the configured roots, by core's
 * path guard (packages/core/src/files/path-guard.ts: relative paths from the first root; `..`,
 * absolute paths and symlinks leading out FORBIDDEN on the real path; a missing file NOT_FOUND;
 * NUL, above 4,095 bytes or a name above 255 INVALID_INPUT; a symlink loop NOT_FOUND; no permission
 * FORBIDDEN — never INTERNAL). Here, what is this server's own: files above the size cap and binary
 * files (a NUL byte in the first 8 KiB) are refused before their content is used, and writes stay
 * out of version-control internals and the server's own config and state.
 */
import type { Stats } from "node:fs";
import { lstat, mkdir, readdir, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import {
  ConfinementError,
  ToolError,
  checkPathShape,
  confinePath,
  errnoCode,
  isInsideAny,
  isMissingPathError,
  isPathInside,
  openConfined,
  pathErrorFrom,
  pathForbidden,
  quotePath,
  realPathOfNearest,
  writeFileConfined,
  type ConfinedFile,
  type PathErrorContext,
} from "@local-mcp/core";

const SNIFF_BYTES = 8192;

export interface TextFile {
  /** The path as the caller gave it (result keys use it). */
  given: string;
  /** The real absolute path. */
  absolute: string;
  /** Relative to the root that holds it, with `/` separators. */
  relative: string;
  text: string;
  bytes: number;
}

/**
 * What is never written even under the roots: the server's own configuration and state. Compared
 * case-insensitively (a case-insensitive file system takes `Local-Model.Config.JSON` for the file).
 */
export interface WriteProtection {
  /** Absolute files never written (the config file that was read, the one a next start would read). */
  files: readonly string[];
  /** Absolute folders nothing is written into (the state dir). */
  dirs: readonly string[];
  /** File names never written anywhere (the config file's name). */
  names: readonly string[];
}

/**
 * Folder names of version-control internals: writing into one (a git config with
 * `core.fsmonitor`, a hook) makes the next git command run a program. `git~1` is the 8.3 alias
 * of `.git` on Windows file systems.
 */
const VCS_NAMES = new Set([".git", "git~1", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul", ".fslckout", "_fossil_"]);
/** Entries of a git directory (a bare repository, a separate `gitdir:`, a worktree's admin folder). */
const GIT_DIR_ENTRIES = new Set(["head", "objects", "refs", "commondir", "gitdir"]);
/** Characters file systems ignore in names (HFS+ ignores these code points; Windows trailing dots and spaces). */
const IGNORED_IN_NAMES = /[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;

/** A path component as a case-insensitive, normalising file system may see it. */
function comparableName(name: string): string {
  const cleaned = name.normalize("NFC").replace(IGNORED_IN_NAMES, "");
  const trimmed = cleaned.replace(/[. ]+$/, "");
  return (trimmed === "" ? cleaned : trimmed).toLowerCase();
}

export class PathGuard {
  constructor(
    /** Real absolute root directories; the first one anchors relative paths. */
    readonly roots: readonly string[],
    readonly maxFileBytes: number,
    private readonly protection: WriteProtection = { files: [], dirs: [], names: [] },
  ) {
    if (roots.length === 0) throw new Error("PathGuard needs at least one root");
    this.context = {
      place: `the allowed roots; this server only touches files under ${roots.join(", ")}`,
      resolvesOutside: "resolves (through a symlink) outside",
      forbiddenSuggestion: "Use a path inside the configured roots (relative paths start at the first root), or handle this file directly.",
      notFound: (given) => ({
        message: `File not found: ${given}`,
        suggestion: `Check the path; relative paths start at ${this.primaryRoot}.`,
      }),
    };
  }

  /** How this server's path errors (core's path guard) word a refusal and a missing file. */
  private readonly context: PathErrorContext;

  get primaryRoot(): string {
    return this.roots[0] as string;
  }

  private inRoots(absolute: string): boolean {
    return isInsideAny(this.roots, absolute);
  }

  /** A file-system error met on `given` as a coded error (core's pathErrorFrom); an I/O failure as is. */
  private fsFailure(given: string, error: unknown): unknown {
    return pathErrorFrom(error, given, this.context);
  }

  /** `operation` with file-system errors about `given` turned into coded errors (fsFailure). */
  private async guarded<T>(given: string, operation: Promise<T>): Promise<T> {
    try {
      return await operation;
    } catch (error) {
      throw this.fsFailure(given, error);
    }
  }

  private forbidden(given: string, why: string): ToolError {
    return pathForbidden(given, why, this.roots, this.context);
  }

  /** Relative to the root holding `absolute`, `/`-separated (the absolute path if none holds it). */
  display(absolute: string): string {
    const root = this.roots.find((r) => isPathInside(r, absolute));
    if (root === undefined) return absolute;
    const rel = relative(root, absolute);
    return rel === "" ? "." : rel.split(sep).join("/");
  }

  /** The real path of an existing file or directory under the roots (core's confinePath). */
  resolveExisting(given: string): Promise<string> {
    return confinePath(this.roots, given, { ...this.context, mustExist: true });
  }

  /**
   * A path under the roots that may not exist yet (a git pathspec, a deleted file): refused when
   * it leaves the roots or when its nearest existing ancestor is really outside (core's confinePath).
   */
  resolveLoose(given: string): Promise<string> {
    return confinePath(this.roots, given, this.context);
  }

  /**
   * Reads a text file under the roots, enforcing the size cap and refusing binary content. The
   * path is checked first (for clear errors), then opened and the OPENED file confined (core's
   * openConfined): a file swapped for a link to a secret between the check and the open is refused,
   * and the content comes from that descriptor only.
   */
  async readText(given: string): Promise<TextFile> {
    const checked = await this.resolveExisting(given);
    const { handle, realPath: absolute, stats: info } = await this.openInRoots(given, checked);
    try {
      this.assertRegularFile(given, info);
      if (info.size > this.maxFileBytes) {
        throw new ToolError(
          "RESOURCE_EXHAUSTED",
          `'${given}' is ${info.size} bytes, above the per-file cap of ${this.maxFileBytes} bytes.`,
          {
            suggestion: "Handle this file directly, or raise max_file_bytes (LOCAL_MODEL_MAX_FILE_BYTES).",
            details: { path: given, bytes: info.size, maxFileBytes: this.maxFileBytes },
          },
        );
      }
      const buffer = Buffer.alloc(info.size);
      let filled = 0;
      while (filled < info.size) {
        const { bytesRead } = await handle.read(buffer, filled, info.size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const content = buffer.subarray(0, filled);
      const nul = content.subarray(0, SNIFF_BYTES).indexOf(0);
      if (nul >= 0) {
        throw new ToolError("INVALID_INPUT", `'${given}' looks binary (a NUL byte at offset ${nul}); only text files are read.`, {
          suggestion: "Pass text files only.",
          details: { path: given, nulOffset: nul },
        });
      }
      let text = content.toString("utf8");
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      return { given, absolute, relative: this.display(absolute), text, bytes: filled };
    } finally {
      await handle.close();
    }
  }

  /** openConfined with its refusals and file-system errors as coded errors about `given`. */
  private async openInRoots(given: string, path: string): Promise<ConfinedFile> {
    try {
      return await openConfined(path, this.roots);
    } catch (error) {
      if (error instanceof ConfinementError) throw this.forbidden(given, "resolves (through a symlink) outside");
      throw this.fsFailure(given, error);
    }
  }

  private assertRegularFile(given: string, info: Stats): void {
    if (info.isDirectory()) throw new ToolError("INVALID_INPUT", `'${given}' is a directory, not a file.`, { details: { path: given } });
    if (!info.isFile()) throw new ToolError("INVALID_INPUT", `'${given}' is not a regular file.`, { details: { path: given } });
  }

  /**
   * Where a file may be written: under the roots lexically and really (the nearest existing
   * ancestor resolved with realpath), not into version-control internals nor onto the server's
   * own config or state (assertWritable); missing parent directories are created. Returns the
   * real target path, for writeText.
   */
  async resolveForWrite(given: string): Promise<string> {
    checkPathShape(given, this.context);
    const candidate = resolve(this.primaryRoot, given);
    if (!this.inRoots(candidate)) throw this.forbidden(given, "is outside");
    const existing = await lstat(candidate).catch((error: unknown) =>
      isMissingPathError(error) ? undefined : Promise.reject(this.fsFailure(given, error)),
    );
    if (existing?.isDirectory()) throw new ToolError("INVALID_INPUT", `'${given}' is a directory.`, { details: { path: given } });
    if (existing?.isSymbolicLink()) {
      const target = await realpath(candidate).catch(() => undefined);
      if (target === undefined || !this.inRoots(target)) throw this.forbidden(given, "is a symlink pointing outside");
    }
    const parent = dirname(candidate);
    const nearest = await this.guarded(given, realPathOfNearest(parent));
    if (nearest === undefined || !this.inRoots(nearest.real)) throw this.forbidden(given, "resolves (through a symlink) outside");
    const { real, rest } = nearest;
    const realParent = rest.length === 0 ? real : join(real, ...rest);
    // Before any folder is made: refused places get nothing, not even an empty folder.
    await this.assertWritable(given, candidate);
    await this.assertWritable(given, join(realParent, basename(candidate)));
    const notDirectory = new ToolError("INVALID_INPUT", `The parent of '${given}' is not a directory.`, { details: { path: given } });
    if (rest.length > 0) {
      await mkdir(realParent, { recursive: true }).catch((error: unknown) => {
        // A file on the way (`file.txt/new/out.md`) is the caller's mistake, not a missing folder.
        const code = errnoCode(error);
        throw code === "ENOTDIR" || code === "EEXIST" ? notDirectory : this.fsFailure(given, error);
      });
    } else if (!(await this.guarded(given, stat(realParent))).isDirectory()) {
      throw notDirectory;
    }
    return join(realParent, basename(candidate));
  }

  /**
   * Writes `target` (from resolveForWrite) atomically through its verified folder (core's
   * writeFileConfined): a folder swapped for a link after the checks cannot redirect the write,
   * and the real target is checked again (assertWritable) before anything is written.
   */
  async writeText(given: string, target: string, content: string): Promise<string> {
    try {
      return await writeFileConfined(target, content, this.roots, { check: (real) => this.assertWritable(given, real) });
    } catch (error) {
      if (error instanceof ConfinementError) throw this.forbidden(given, "resolves (through a symlink) outside");
      throw this.fsFailure(given, error);
    }
  }

  /**
   * Refuses (FORBIDDEN) a write to `absolute` that lands in version-control internals — a path
   * component `.git`, `.hg`, `.svn`, `.jj`… in any case, or a folder that is a git directory by
   * its content (HEAD, objects, refs, commondir, gitdir: a bare repository or the target of a
   * `.git` file's `gitdir:`) — or onto the server's own config or into its state dir.
   */
  private async assertWritable(given: string, absolute: string): Promise<void> {
    const root = this.roots.find((r) => isPathInside(r, absolute));
    if (root === undefined) throw this.forbidden(given, "is outside");
    const components = relative(root, absolute)
      .split(sep)
      .filter((c) => c !== "");
    if (components.some((c) => VCS_NAMES.has(comparableName(c)))) {
      throw this.refusedWrite(
        given,
        "is inside version-control internals (.git, .hg, .svn, .jj …), where a written file could make git run a program",
      );
    }
    const name = comparableName(basename(absolute));
    const lower = absolute.toLowerCase();
    // Each protected path as given and as its real path (a symlinked /tmp, a linked state folder).
    const [files, dirs] = await Promise.all(
      [this.protection.files, this.protection.dirs].map((paths) => Promise.all(paths.flatMap((p) => [p, this.realOf(p)]))),
    );
    if (this.protection.names.some((n) => n.toLowerCase() === name) || (files ?? []).some((f) => f.toLowerCase() === lower)) {
      throw this.refusedWrite(given, "is this server's configuration file, which no tool may write");
    }
    if ((dirs ?? []).some((d) => isPathInside(d.toLowerCase(), lower))) {
      throw this.refusedWrite(given, "is inside this server's state folder, which no tool may write");
    }
    // Every folder from the target's up to the root: is it a git directory, or would this write make it one?
    let folder = dirname(absolute);
    let entry: string | undefined = name;
    for (;;) {
      const present = await readdir(folder).then(
        (names) => names.map(comparableName).filter((n) => GIT_DIR_ENTRIES.has(n)),
        () => [] as string[],
      );
      const count = new Set([...present, ...(entry !== undefined && GIT_DIR_ENTRIES.has(entry) ? [entry] : [])]).size;
      if (count >= 2)
        throw this.refusedWrite(
          given,
          "is inside a git directory (a bare repository or a `.git` file's gitdir), where a written file could make git run a program",
        );
      if (folder === root || !isPathInside(root, folder)) break;
      entry = undefined;
      folder = dirname(folder);
    }
  }

  /** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
  private async realOf(path: string): Promise<string> {
    return realPathOfNearest(path).then(
      (nearest) => (nearest === undefined ? path : join(nearest.real, ...nearest.rest)),
      () => path,
    );
  }

  private refusedWrite(given: string, why: string): ToolError {
    return new ToolError("FORBIDDEN", `Path '${quotePath(given)}' ${why}.`, {
      recoverable: false,
      suggestion: "Write to an ordinary file of the project instead, or handle this file directly.",
      details: { path: given },
    });
  }
}
