/**
 * Which files an import reads: the Markdown files named, and those found (recursively) in the
 * directories named. Every path must lie inside the project root — `..`, absolute paths
 * elsewhere and symbolic links that lead out are refused with FORBIDDEN before anything is
 * read. Inside directories, hidden folders, node_modules, dist, build and coverage are not
 * entered, symbolic links to folders are not followed, and links to files outside the root,
 * non-Markdown files named explicitly, files over the size bound and folders that cannot be read
 * are reported as skipped. A named path the file system refuses (NUL, too long, a symlink loop,
 * no permission) gets a coded error naming the argument (paths.ts `pathErrorFrom`).
 */
import type { Dirent } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { isPathInside } from "@local-mcp/core";
import { CatDocInputError } from "../errors.js";
import { MAX_DOCUMENT_BYTES } from "../document-path.js";
import { pathErrorFrom, resolveInsideRoot } from "../paths.js";
import type { SkippedDocument } from "./types.js";

/** Most Markdown files one import reads. */
export const MAX_IMPORT_FILES = 5_000;
const MAX_DEPTH = 20;
const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", "coverage"]);
const MARKDOWN = /\.(md|markdown)$/i;

export interface FoundFile {
  /** Relative to the (real) project root, with `/`. */
  path: string;
  absolute: string;
  size: number;
  /** The real project root: reading the file confines what is opened to it (paths.ts readInsideRoot). */
  root: string;
}

export interface Discovery {
  files: FoundFile[];
  skipped: SkippedDocument[];
}

class Collector {
  readonly files = new Map<string, FoundFile>();
  readonly skipped: SkippedDocument[] = [];

  constructor(private readonly realRoot: string) {}

  relativePath(absolute: string): string {
    return relative(this.realRoot, absolute).split(sep).join("/");
  }

  /** `absolute` is a real path inside the root. */
  async addFile(absolute: string, explicit: boolean): Promise<void> {
    const path = this.relativePath(absolute);
    if (this.files.has(path)) return;
    if (!MARKDOWN.test(absolute)) {
      if (explicit) this.skipped.push({ path, reason: "not a Markdown file (.md or .markdown)" });
      return;
    }
    const info = await stat(absolute);
    if (info.size > MAX_DOCUMENT_BYTES) {
      this.skipped.push({ path, reason: `larger than ${MAX_DOCUMENT_BYTES} bytes` });
      return;
    }
    if (this.files.size >= MAX_IMPORT_FILES) {
      throw new CatDocInputError(`More than ${MAX_IMPORT_FILES} Markdown files to import; import smaller directories one at a time`, {
        limit: MAX_IMPORT_FILES,
      });
    }
    this.files.set(path, { path, absolute, size: info.size, root: this.realRoot });
  }

  async walk(dir: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH) {
      this.skipped.push({ path: this.relativePath(dir), reason: `deeper than ${MAX_DEPTH} folders; not searched` });
      return;
    }
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      // The folder named is the caller's (discoverMarkdown codes its error); one found inside is skipped.
      if (depth === 0) throw error;
      const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "an error";
      this.skipped.push({ path: this.relativePath(dir), reason: `could not be read (${code}); not searched` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const absolute = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)) await this.walk(absolute, depth + 1);
      } else if (entry.isFile()) {
        await this.addFile(absolute, false);
      } else if (entry.isSymbolicLink() && MARKDOWN.test(entry.name)) {
        await this.addLink(absolute);
      }
    }
  }

  /** A symbolic link met while walking: its target is used when it is a file inside the root. */
  private async addLink(link: string): Promise<void> {
    const path = this.relativePath(link);
    const real = await realpath(link).catch(() => undefined);
    if (real === undefined) {
      this.skipped.push({ path, reason: "broken symbolic link" });
    } else if (!isPathInside(this.realRoot, real)) {
      this.skipped.push({ path, reason: "symbolic link that resolves outside the project root" });
    } else if ((await stat(real)).isFile()) {
      await this.addFile(real, false);
    }
  }
}

/**
 * The Markdown files under `paths` (relative to `root`), sorted by path. `field` names the
 * argument the paths came from in errors (a path with a NUL character, too long, missing…).
 */
export async function discoverMarkdown(root: string, paths: readonly string[], field = "paths"): Promise<Discovery> {
  if (paths.length === 0) throw new CatDocInputError("Give at least one file or directory to import", { field });
  const realRoot = await realpath(root).catch(() => root);
  const collector = new Collector(realRoot);
  for (const userPath of paths) {
    if (userPath.trim() === "") throw new CatDocInputError("An import path is empty", { field });
    const absolute = await resolveInsideRoot(root, userPath, field);
    const info = await lstat(absolute).catch((error: unknown) => {
      throw pathErrorFrom(error, userPath, field);
    });
    // resolveInsideRoot returned the real path when the file exists, so this is no link.
    try {
      if (info.isDirectory()) await collector.walk(absolute, 0);
      else if (info.isFile()) await collector.addFile(absolute, true);
      else collector.skipped.push({ path: collector.relativePath(absolute), reason: "not a regular file or directory" });
    } catch (error) {
      throw pathErrorFrom(error, userPath, field);
    }
  }
  const files = [...collector.files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped: collector.skipped };
}
