/**
 * Path safety: every path a tool reads or writes resolves under the configured roots. Relative
 * paths are taken from the first root. `..` and absolute paths that leave the roots, and symlinks
 * whose target lies outside, are FORBIDDEN (checked on the real path); a missing file is
 * NOT_FOUND; files above the size cap and binary files (a NUL byte in the first 8 KiB) are
 * refused before their content is used.
 */
import type { Stats } from "node:fs";
import { lstat, mkdir, open, realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolError } from "@local-mcp/core";

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

/** True when `candidate` (absolute) is `root` or lies below it. */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

export class PathGuard {
  constructor(
    /** Real absolute root directories; the first one anchors relative paths. */
    readonly roots: readonly string[],
    readonly maxFileBytes: number,
  ) {
    if (roots.length === 0) throw new Error("PathGuard needs at least one root");
  }

  get primaryRoot(): string {
    return this.roots[0] as string;
  }

  private inRoots(absolute: string): boolean {
    return this.roots.some((root) => isInside(root, absolute));
  }

  private checkShape(given: string): void {
    if (given.length === 0) throw new ToolError("INVALID_INPUT", "An empty path was given.", { details: { path: given } });
    if (given.includes("\0")) throw new ToolError("INVALID_INPUT", "A path contains a NUL character.", { details: { path: given } });
  }

  private forbidden(given: string, why: string): ToolError {
    return new ToolError("FORBIDDEN", `Path '${given}' ${why}; this server only touches files under ${this.roots.join(", ")}.`, {
      recoverable: false,
      suggestion: "Use a path inside the configured roots (relative paths start at the first root), or handle this file directly.",
      details: { path: given, roots: [...this.roots] },
    });
  }

  /** Relative to the root holding `absolute`, `/`-separated (the absolute path if none holds it). */
  display(absolute: string): string {
    const root = this.roots.find((r) => isInside(r, absolute));
    if (root === undefined) return absolute;
    const rel = relative(root, absolute);
    return rel === "" ? "." : rel.split(sep).join("/");
  }

  /** The real path of an existing file or directory under the roots. */
  async resolveExisting(given: string): Promise<string> {
    this.checkShape(given);
    const candidate = resolve(this.primaryRoot, given);
    if (!this.inRoots(candidate)) {
      // An alias of a root (a symlinked parent such as /tmp → /private/tmp) is fine when the real
      // path is inside; anything else is refused without saying whether it exists.
      const real = await realpath(candidate).catch(() => undefined);
      if (real !== undefined && this.inRoots(real)) return real;
      throw this.forbidden(given, "is outside the allowed roots");
    }
    let real: string;
    try {
      real = await realpath(candidate);
    } catch (error) {
      if (isMissing(error)) {
        throw new ToolError("NOT_FOUND", `File not found: ${given}`, {
          suggestion: `Check the path; relative paths start at ${this.primaryRoot}.`,
          details: { path: given },
        });
      }
      throw error;
    }
    if (!this.inRoots(real)) throw this.forbidden(given, "resolves (through a symlink) outside the allowed roots");
    return real;
  }

  /**
   * A path under the roots that may not exist yet (a git pathspec, a deleted file): refused when
   * it leaves the roots lexically or when its nearest existing ancestor is really outside.
   */
  async resolveLoose(given: string): Promise<string> {
    this.checkShape(given);
    const candidate = resolve(this.primaryRoot, given);
    if (!this.inRoots(candidate)) throw this.forbidden(given, "is outside the allowed roots");
    const { real, rest } = await this.nearestExisting(candidate);
    if (!this.inRoots(real)) throw this.forbidden(given, "resolves (through a symlink) outside the allowed roots");
    return rest.length === 0 ? real : join(real, ...rest);
  }

  /** Reads a text file under the roots, enforcing the size cap and refusing binary content. */
  async readText(given: string): Promise<TextFile> {
    const absolute = await this.resolveExisting(given);
    // Checked before opening: opening a FIFO for reading would block.
    this.assertRegularFile(given, await stat(absolute));
    const handle = await open(absolute, "r");
    try {
      const info = await handle.stat();
      this.assertRegularFile(given, info);
      if (info.size > this.maxFileBytes) {
        throw new ToolError("RESOURCE_EXHAUSTED", `'${given}' is ${info.size} bytes, above the per-file cap of ${this.maxFileBytes} bytes.`, {
          suggestion: "Handle this file directly, or raise max_file_bytes (LOCAL_MODEL_MAX_FILE_BYTES).",
          details: { path: given, bytes: info.size, maxFileBytes: this.maxFileBytes },
        });
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

  private assertRegularFile(given: string, info: Stats): void {
    if (info.isDirectory()) throw new ToolError("INVALID_INPUT", `'${given}' is a directory, not a file.`, { details: { path: given } });
    if (!info.isFile()) throw new ToolError("INVALID_INPUT", `'${given}' is not a regular file.`, { details: { path: given } });
  }

  /**
   * Where a file may be written: under the roots lexically and really (the nearest existing
   * ancestor resolved with realpath); missing parent directories are created. Returns the real
   * target path.
   */
  async resolveForWrite(given: string): Promise<string> {
    this.checkShape(given);
    const candidate = resolve(this.primaryRoot, given);
    if (!this.inRoots(candidate)) throw this.forbidden(given, "is outside the allowed roots (writes stay under them)");
    const existing = await lstat(candidate).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
    if (existing?.isDirectory()) throw new ToolError("INVALID_INPUT", `'${given}' is a directory.`, { details: { path: given } });
    if (existing?.isSymbolicLink()) {
      const target = await realpath(candidate).catch(() => undefined);
      if (target === undefined || !this.inRoots(target)) throw this.forbidden(given, "is a symlink pointing outside the allowed roots");
    }
    const parent = dirname(candidate);
    const { real, rest } = await this.nearestExisting(parent);
    if (!this.inRoots(real)) throw this.forbidden(given, "resolves (through a symlink) outside the allowed roots");
    const realParent = rest.length === 0 ? real : join(real, ...rest);
    if (rest.length > 0) await mkdir(realParent, { recursive: true });
    else if (!(await stat(realParent)).isDirectory()) {
      throw new ToolError("INVALID_INPUT", `The parent of '${given}' is not a directory.`, { details: { path: given } });
    }
    return join(realParent, basename(candidate));
  }

  private async nearestExisting(path: string): Promise<{ real: string; rest: string[] }> {
    const rest: string[] = [];
    let current = path;
    for (;;) {
      try {
        return { real: await realpath(current), rest };
      } catch (error) {
        if (!isMissing(error)) throw error;
        const parent = dirname(current);
        if (parent === current) throw error;
        rest.unshift(basename(current));
        current = parent;
      }
    }
  }
}
