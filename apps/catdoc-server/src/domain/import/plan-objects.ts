/**
 * The object part of an import, applied to one edit: each document becomes a new object of the
 * category place-documents.ts chose for it, an update of the object it already is, or a skipped
 * entry with the reason.
 *
 * Re-import rule. An object that already exists in the chosen category is matched by id:
 *  - without `force`, the values category.yaml already has are kept. Only the import's own
 *    bookkeeping is written — `metadata.path` (the document) and `metadata.contentHash` — plus
 *    `metadata.tags` when the object has none. Title, domain or tags that differ from the
 *    document, and inline `content` (which would hide the file), are reported as conflicts;
 *  - with `force`, title, domain, tags and the document path are set from the document and
 *    inline content is removed; other metadata keys are kept.
 * An object that points to another document (`metadata.path`) is skipped unless `force`; an
 * object of another category is never moved (skipped); and a document that is already the
 * document of another object is skipped rather than duplicated.
 */
import { posix } from "node:path";
import { documentPathOf } from "../document-path.js";
import { identityIdFor } from "../identity.js";
import type { CatDocObject } from "../model.js";
import type { CatDocProject } from "../project.js";
import type { CategoryEditor } from "../store/editor.js";
import type { ObjectPatch } from "../store/edit-inputs.js";
import type { PlacedDocument } from "./place-documents.js";
import { isValidObjectId } from "./read-documents.js";
import type { ImportCandidate } from "./read-documents.js";
import type { ImportConflict, ImportedObject, SkippedDocument } from "./types.js";

export interface ObjectPlan {
  added: ImportedObject[];
  updated: ImportedObject[];
  unchanged: ImportedObject[];
  skipped: SkippedDocument[];
  conflicts: ImportConflict[];
  /** Documents that are objects after the import: path → object id. */
  accepted: Map<string, string>;
}

export interface ObjectPlanContext {
  editor: CategoryEditor;
  project: CatDocProject;
  /** Where each document goes (place-documents.ts), by path. */
  placement: ReadonlyMap<string, PlacedDocument>;
  /** Domain for documents without one, from the caller. */
  domainOption: string | undefined;
  force: boolean;
  /** Existing objects' documents: root-relative path → object id. */
  documentOwners: ReadonlyMap<string, string>;
}

/** `./notes/a.md` → `notes/a.md`. */
export function normalizeDocumentPath(path: string): string {
  return posix.normalize(path.replace(/\\/g, "/")).replace(/^\.\//, "");
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

export function planObjects(candidates: readonly ImportCandidate[], context: ObjectPlanContext): ObjectPlan {
  const { editor, force } = context;
  const plan: ObjectPlan = { added: [], updated: [], unchanged: [], skipped: [], conflicts: [], accepted: new Map() };
  const fromPath = new Map<string, string>();
  const defaultDomain = context.domainOption ?? context.project.settings.defaultDomain;

  for (const candidate of candidates) {
    const { id, path } = candidate;
    const placed = context.placement.get(path);
    if (placed === undefined) continue;
    const { categoryId, placedBy } = placed;
    const skip = (reason: string) => plan.skipped.push({ path, id, reason });
    if (!isValidObjectId(id)) {
      skip(`'${id}' is not a valid object id (1-200 characters without spaces, '/', '\\', '#' or '?'); set an id in the frontmatter`);
      continue;
    }
    const earlier = fromPath.get(id);
    if (earlier !== undefined) {
      skip(`object id '${id}' also comes from '${earlier}' in this import`);
      continue;
    }
    fromPath.set(id, path);
    const owner = context.documentOwners.get(path);
    if (owner !== undefined && owner !== id) {
      skip(`the document of object '${owner}' already; give it frontmatter id '${owner}' or change that object`);
      continue;
    }
    const home = editor.categoryOf(id);
    if (home !== undefined && home !== categoryId) {
      skip(`object '${id}' exists in category '${home}'; import into that category to update it`);
      continue;
    }
    if (home === undefined) {
      if (editor.hasMorphism(identityIdFor(id))) {
        skip(`morphism '${identityIdFor(id)}' (the identity id of '${id}') already exists`);
        continue;
      }
      const domain = candidate.domain ?? defaultDomain;
      const metadata: Record<string, unknown> = {
        path,
        contentHash: candidate.contentHash,
        ...(candidate.tags ? { tags: candidate.tags } : {}),
      };
      editor.addObject(categoryId, { id, title: candidate.title, domain, metadata });
      plan.added.push({ id, path, title: candidate.title, domain, categoryId, placedBy });
      plan.accepted.set(path, id);
      continue;
    }
    const object = context.project.index.categories.get(categoryId)?.objects.get(id);
    if (object === undefined) {
      skip(`object '${id}' is defined more than once; fix category.yaml first`);
      continue;
    }
    const pointed = documentPathOf(object);
    if (pointed !== undefined && normalizeDocumentPath(pointed) !== path && !force) {
      skip(`object '${id}' already has the document '${pointed}'; use force to point it to '${path}'`);
      continue;
    }
    const result = updateExisting(editor, object, candidate, context, plan);
    (result.changed ? plan.updated : plan.unchanged).push({ id, path, title: result.title, domain: result.domain, categoryId, placedBy });
    plan.accepted.set(path, id);
  }
  return plan;
}

function updateExisting(
  editor: CategoryEditor,
  object: CatDocObject,
  candidate: ImportCandidate,
  context: ObjectPlanContext,
  plan: ObjectPlan,
): { changed: boolean; title: string; domain: string } {
  const importedDomain = candidate.domain ?? context.domainOption;
  const currentTags = stringList(object.metadata?.["tags"]);
  const current: Record<string, unknown> = {};
  const imported: Record<string, unknown> = {};
  const differ = (field: string, now: unknown, next: unknown) => {
    current[field] = now;
    imported[field] = next;
  };
  if (candidate.title !== object.title) differ("title", object.title, candidate.title);
  if (importedDomain !== undefined && importedDomain !== object.domain) differ("domain", object.domain, importedDomain);
  if (candidate.tags !== undefined && currentTags !== undefined && !sameList(candidate.tags, currentTags))
    differ("tags", currentTags, candidate.tags);
  if (object.content !== undefined && object.content.trim() !== "") differ("content", "(inline content)", `(document ${candidate.path})`);
  const fields = Object.keys(current);

  const metadata: Record<string, unknown> = { path: candidate.path, contentHash: candidate.contentHash };
  if (candidate.tags !== undefined && (currentTags === undefined || context.force)) metadata["tags"] = candidate.tags;
  const patch: ObjectPatch = { metadata };
  if (context.force) {
    patch.title = candidate.title;
    if (importedDomain !== undefined) patch.domain = importedDomain;
    if (fields.includes("content")) patch.content = null;
  } else if (fields.length > 0) {
    plan.conflicts.push({ id: object.id, path: candidate.path, fields, current, imported });
  }
  const changed = editor.updateObject(object.id, patch);
  return {
    changed,
    title: context.force ? candidate.title : object.title,
    domain: context.force ? (importedDomain ?? object.domain) : object.domain,
  };
}
