/**
 * The morphism part of an import: each reference of an imported document to another object of
 * the same category becomes a morphism `ref--<source>--<target>` named `references` (one per
 * pair of objects, whatever the number of references; `metadata.reference` says how the first
 * was written). A reference resolves to an object of the category — one already there or one
 * this import adds — and is never invented: what does not resolve is reported with the reason.
 *
 *  - `@id` names an object id;
 *  - `[[text]]` names an object id, the slug of an id (`[[Group Theory]]` → `group-theory`) or
 *    the title of an object of the category (when one object has it);
 *  - `[text](./other.md)` names a document, relative to the referring document's folder
 *    (`/docs/other.md`: relative to the project root); links that leave the root resolve to nothing.
 */
import { posix } from "node:path";
import { slugFromFileName } from "../frontmatter.js";
import type { CategoryEditor } from "../store/editor.js";
import type { ImportCandidate } from "./read-documents.js";
import { isValidObjectId } from "./read-documents.js";
import type { DocumentReference } from "./references.js";
import type { ProposedMorphism, UnresolvedReference } from "./types.js";

export const REFERENCE_MORPHISM_NAME = "references";

export function referenceMorphismId(source: string, target: string): string {
  return `ref--${source}--${target}`;
}

export interface MorphismPlan {
  proposed: ProposedMorphism[];
  existing: string[];
  unresolved: UnresolvedReference[];
}

export interface MorphismPlanContext {
  editor: CategoryEditor;
  categoryId: string;
  /** Documents of the category after the object part: path → object id. */
  accepted: ReadonlyMap<string, string>;
  /** Existing objects' documents: path → object id. */
  documentOwners: ReadonlyMap<string, string>;
  /** Ids of documents this import skipped. */
  skippedIds: ReadonlySet<string>;
}

type Resolution = { target: string } | { reason: string };

export function planMorphisms(candidates: readonly ImportCandidate[], context: MorphismPlanContext): MorphismPlan {
  const { editor, categoryId } = context;
  const plan: MorphismPlan = { proposed: [], existing: [], unresolved: [] };
  const titles = titleIndex(editor, categoryId);
  const inCategory = (id: string) => editor.categoryOf(id) === categoryId;

  const byId = (id: string, written: string): Resolution => {
    if (inCategory(id)) return { target: id };
    const home = editor.categoryOf(id);
    if (home !== undefined) return { reason: `object '${id}' is in category '${home}', not '${categoryId}'` };
    if (context.skippedIds.has(id)) return { reason: `object '${id}' was skipped by this import` };
    return { reason: `no object '${written}' in category '${categoryId}'` };
  };

  const resolve = (source: ImportCandidate, reference: DocumentReference): Resolution => {
    switch (reference.kind) {
      case "@ref":
        return byId(reference.value, reference.value);
      case "wikilink": {
        const slug = slugFromFileName(reference.value);
        if (inCategory(reference.value)) return { target: reference.value };
        if (inCategory(slug)) return { target: slug };
        const titled = titles.get(reference.value.toLowerCase());
        if (titled !== undefined)
          return titled === null ? { reason: `several objects have the title '${reference.value}'` } : { target: titled };
        return byId(reference.value, reference.value);
      }
      case "link": {
        // `/docs/a.md` is read from the project root, anything else from the document's folder.
        const joined = reference.value.startsWith("/")
          ? reference.value.replace(/^\/+/, "")
          : posix.join(posix.dirname(source.path), reference.value);
        const path = posix.normalize(joined);
        if (path === ".." || path.startsWith("../") || path.startsWith("/")) return { reason: "the link leads outside the project root" };
        const target = context.accepted.get(path) ?? context.documentOwners.get(path);
        if (target === undefined) return { reason: `no object has the document '${path}'` };
        return inCategory(target) ? { target } : byId(target, target);
      }
    }
  };

  const pairs = new Set<string>();
  for (const candidate of candidates) {
    const source = context.accepted.get(candidate.path);
    if (source === undefined || source !== candidate.id) continue;
    for (const reference of candidate.references) {
      const resolution = resolve(candidate, reference);
      if ("reason" in resolution) {
        plan.unresolved.push({ source, reference: reference.value, kind: reference.kind, reason: resolution.reason });
        continue;
      }
      const target = resolution.target;
      const pair = `${source}\u0000${target}`;
      if (target === source || pairs.has(pair)) continue;
      pairs.add(pair);
      const id = referenceMorphismId(source, target);
      if (editor.hasMorphism(id)) {
        plan.existing.push(id);
      } else if (!isValidObjectId(id)) {
        plan.unresolved.push({
          source,
          reference: reference.value,
          kind: reference.kind,
          reason: `the morphism id '${id.slice(0, 40)}…' would be longer than 200 characters`,
        });
      } else {
        editor.addMorphism(categoryId, { id, name: REFERENCE_MORPHISM_NAME, source, target, metadata: { reference: reference.kind } });
        plan.proposed.push({ id, name: REFERENCE_MORPHISM_NAME, source, target, reason: reference.kind });
      }
    }
  }
  return plan;
}

/** Lower-cased title → object id of the category; null when several objects share the title. */
function titleIndex(editor: CategoryEditor, categoryId: string): Map<string, string | null> {
  const titles = new Map<string, string | null>();
  const category = editor.model.categories.find((c) => c.id === categoryId);
  for (const object of category?.objects ?? []) {
    const key = object.title.trim().toLowerCase();
    titles.set(key, titles.has(key) ? null : object.id);
  }
  return titles;
}
