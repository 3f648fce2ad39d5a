/**
 * The document of each object. In order of precedence:
 *   1. inline `content` in category.yaml;
 *   2. a file named in the object's metadata (`path`, `filePath`, `file`, `document` or
 *      `documentPath`, relative to the project root);
 *   3. a Markdown file under the document roots whose frontmatter `id` is the object id — how
 *      the original tool's examples tie `docs/*.md` to their objects;
 *   4. a Markdown file without a frontmatter id whose name, slugged as the original importer
 *      did, is the object id.
 * Files are read from inside the project root only (symlinks out of it are refused), hidden
 * folders (but `.catdoc`), node_modules, dist, build and coverage are not scanned, and large
 * files are skipped; what was skipped is listed in `problems`.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { isCatDocError } from "./errors.js";
import { frontmatterText, parseMarkdown, slugFromFileName } from "./frontmatter.js";
import { MAX_DOCUMENT_BYTES, documentPathOf } from "./document-path.js";
import type { CatDocModel, CatDocObject } from "./model.js";
import type { ProjectPaths } from "./paths.js";
import { readInsideRoot, resolveInsideRoot } from "./paths.js";

const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", "coverage"]);
const MAX_FILES = 10_000;
const MAX_DEPTH = 20;

export type DocumentOrigin = "inline" | "metadata-path" | "frontmatter-id" | "file-name";

export interface ObjectDocument {
  objectId: string;
  origin: DocumentOrigin;
  /** Path relative to the project root (with `/`); null for inline content. */
  path: string | null;
  frontmatter: Record<string, unknown>;
  /** The Markdown text without its frontmatter. */
  body: string;
}

export interface DocumentProblem {
  objectId?: string;
  path: string;
  reason: string;
}

export interface DocumentSet {
  byObject: Map<string, ObjectDocument>;
  problems: DocumentProblem[];
  /** Markdown files read while scanning the document roots. */
  scannedFiles: number;
}

interface ScannedFile {
  path: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

function toPosix(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join("/");
}

async function readDocumentFile(
  root: string,
  userPath: string,
  problems: DocumentProblem[],
  objectId?: string,
): Promise<ScannedFile | undefined> {
  try {
    const absolute = await resolveInsideRoot(root, userPath);
    // Read through what was opened, confined to the root: a swap for a link after the check is refused.
    const bytes = await readInsideRoot(root, absolute, { userPath, maxBytes: MAX_DOCUMENT_BYTES });
    const parsed = parseMarkdown(bytes.toString("utf8"));
    return { path: toPosix(root, absolute), frontmatter: parsed.frontmatter, body: parsed.body };
  } catch (error) {
    const reason = isCatDocError(error) || error instanceof Error ? error.message : String(error);
    problems.push({ ...(objectId === undefined ? {} : { objectId }), path: userPath, reason });
    return undefined;
  }
}

async function listMarkdown(root: string, dir: string, depth: number, found: string[]): Promise<void> {
  if (depth > MAX_DEPTH || found.length >= MAX_FILES) return;
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (found.length >= MAX_FILES) return;
    const absolute = join(dir, entry.name);
    if (entry.isDirectory()) {
      const hidden = entry.name.startsWith(".") && entry.name !== ".catdoc";
      if (!hidden && !SKIPPED_DIRS.has(entry.name)) await listMarkdown(root, absolute, depth + 1, found);
    } else if (entry.isFile() && /\.(md|markdown)$/i.test(entry.name)) {
      found.push(absolute);
    }
  }
}

/** Reads the documents of every object of the model. */
export async function loadDocuments(paths: ProjectPaths, model: CatDocModel, documentRoots: readonly string[]): Promise<DocumentSet> {
  const byObject = new Map<string, ObjectDocument>();
  const problems: DocumentProblem[] = [];
  const pending: CatDocObject[] = [];
  const objects = model.categories.flatMap((category) => category.objects);

  for (const object of objects) {
    if (byObject.has(object.id)) continue;
    if (object.content !== undefined && object.content.trim() !== "") {
      const parsed = parseMarkdown(object.content);
      byObject.set(object.id, { objectId: object.id, origin: "inline", path: null, frontmatter: parsed.frontmatter, body: parsed.body });
      continue;
    }
    const pointed = documentPathOf(object);
    if (pointed === undefined) {
      pending.push(object);
      continue;
    }
    const file = await readDocumentFile(paths.root, pointed, problems, object.id);
    if (file !== undefined) byObject.set(object.id, { objectId: object.id, origin: "metadata-path", ...file });
  }

  let scannedFiles = 0;
  if (pending.length > 0) {
    const files: string[] = [];
    for (const root of documentRoots) {
      try {
        await listMarkdown(paths.root, await resolveInsideRoot(paths.root, root), 0, files);
      } catch (error) {
        problems.push({ path: root, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    const byFrontmatterId = new Map<string, ScannedFile>();
    const byFileName = new Map<string, ScannedFile>();
    for (const absolute of [...new Set(files)]) {
      const file = await readDocumentFile(paths.root, toPosix(paths.root, absolute), problems);
      if (file === undefined) continue;
      scannedFiles += 1;
      const id = frontmatterText(file.frontmatter, "id");
      if (id !== undefined && !byFrontmatterId.has(id)) byFrontmatterId.set(id, file);
      const slug = slugFromFileName(absolute.slice(absolute.lastIndexOf(sep) + 1));
      if (id === undefined && !byFileName.has(slug)) byFileName.set(slug, file);
    }
    for (const object of pending) {
      const byId = byFrontmatterId.get(object.id);
      const byName = byId === undefined ? byFileName.get(object.id) : undefined;
      const file = byId ?? byName;
      if (file === undefined) continue;
      byObject.set(object.id, { objectId: object.id, origin: byId !== undefined ? "frontmatter-id" : "file-name", ...file });
    }
  }
  return { byObject, problems, scannedFiles };
}
