/**
 * The content hash of each object's document now, what a review records and validation
 * compares: content-hash.ts's documentHash (the value `catdoc import` writes as
 * `metadata.contentHash`) of:
 *   - the document file's bytes, read from disk on every call (where the file is comes from the
 *     project's document index, documents.ts: a metadata path, a frontmatter id or a file name);
 *   - the inline `content`, for an object that keeps its document in category.yaml;
 *   - the object's title, for an object without a document (or whose file cannot be read now:
 *     a deleted document reads as a change).
 */
import { MAX_DOCUMENT_BYTES, documentPathOf } from "../document-path.js";
import { documentHash } from "../content-hash.js";
import type { CatDocModel, CatDocObject } from "../model.js";
import { readInsideRoot, resolveInsideRoot } from "../paths.js";
import type { CatDocProject } from "../project.js";

export interface DocumentHash {
  hash: string;
  /** Root-relative path of the file hashed; null for inline content or a title. */
  path: string | null;
  /** What was hashed. */
  from: "file" | "inline" | "title";
  /** The bytes hashed, when asked for (`withText`): what review snapshots keep and `catdoc diff` compares. */
  text?: Buffer;
}

/** Files read at once while hashing. */
const READ_CONCURRENCY = 32;

function hasInlineContent(object: CatDocObject): boolean {
  return object.content !== undefined && object.content.trim() !== "";
}

function objectsOf(model: CatDocModel): CatDocObject[] {
  const seen = new Set<string>();
  const objects: CatDocObject[] = [];
  for (const category of model.categories) {
    for (const object of category.objects) {
      if (seen.has(object.id)) continue;
      seen.add(object.id);
      objects.push(object);
    }
  }
  return objects;
}

/** Hashes of inline content and titles, by object: a loaded model never changes (a new version of category.yaml is a new model). */
const fromModel = new WeakMap<CatDocObject, DocumentHash>();

function withoutFile(object: CatDocObject): DocumentHash {
  let known = fromModel.get(object);
  if (known === undefined) {
    known = hasInlineContent(object)
      ? { hash: documentHash(object.content ?? ""), path: null, from: "inline" }
      : { hash: documentHash(object.title), path: null, from: "title" };
    fromModel.set(object, known);
  }
  return known;
}

/**
 * The hashes computable from category.yaml alone: inline content and titles. Objects with a
 * document file are hashed by their title here; use {@link currentDocumentHashes} for a project.
 */
export function modelDocumentHashes(model: CatDocModel): Map<string, DocumentHash> {
  return new Map(objectsOf(model).map((object) => [object.id, withoutFile(object)]));
}

function withTextOf(object: CatDocObject, known: DocumentHash): DocumentHash {
  return { ...known, text: Buffer.from(known.from === "inline" ? (object.content ?? "") : object.title, "utf8") };
}

/**
 * Every object's document hash now (files read afresh; their places from the project's document
 * index) — or only those of `objectIds`, when given; with the bytes hashed under `withText`.
 */
export async function currentDocumentHashes(
  project: CatDocProject,
  objectIds?: ReadonlySet<string>,
  options: { withText?: boolean } = {},
): Promise<Map<string, DocumentHash>> {
  const noFile = (object: CatDocObject): DocumentHash =>
    options.withText === true ? withTextOf(object, withoutFile(object)) : withoutFile(object);
  const objects = objectsOf(project.model).filter((object) => objectIds === undefined || objectIds.has(object.id));
  const hashes = new Map<string, DocumentHash>();
  const files: { object: CatDocObject; path: string }[] = [];
  // The document index scans the document roots; only objects with neither inline content nor a metadata path need it.
  const needsScan = objects.some((object) => !hasInlineContent(object) && documentPathOf(object) === undefined);
  const documents = needsScan ? (await project.documents()).byObject : undefined;
  for (const object of objects) {
    if (hasInlineContent(object)) {
      hashes.set(object.id, noFile(object));
      continue;
    }
    const path = documents?.get(object.id)?.path ?? documentPathOf(object);
    if (path === undefined || path === null) hashes.set(object.id, noFile(object));
    else files.push({ object, path });
  }
  const root = project.paths.root;
  for (let start = 0; start < files.length; start += READ_CONCURRENCY) {
    const batch = files.slice(start, start + READ_CONCURRENCY);
    const read = await Promise.all(
      batch.map(async ({ path }) => {
        try {
          const absolute = await resolveInsideRoot(root, path);
          return await readInsideRoot(root, absolute, { userPath: path, maxBytes: MAX_DOCUMENT_BYTES });
        } catch {
          return undefined;
        }
      }),
    );
    batch.forEach(({ object, path }, i) => {
      const bytes = read[i];
      if (bytes === undefined) hashes.set(object.id, noFile(object));
      else hashes.set(object.id, { hash: documentHash(bytes), path, from: "file", ...(options.withText === true ? { text: bytes } : {}) });
    });
  }
  return hashes;
}
