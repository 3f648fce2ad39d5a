/**
 * The morphism part of an import: references of an imported document to other objects of its
 * category become morphisms, one per pair of objects, named after the relation the document
 * states (relations.ts: `covers @req-login` → `covers--test-login--req-login`, named `covers`;
 * a passive verb turns the arrow around), else `ref--<source>--<target>` named `references`;
 * `metadata.reference` says how the reference was written. A pair already joined by a morphism
 * of that id — or by the `ref--` morphism an earlier import made before it read verbs — is
 * reported as existing. A reference resolves to an object — one already there or one this
 * import adds — and is never invented: what does not resolve is reported with the reason.
 * References to objects of another category are handed on as crossings (plan-proposals.ts
 * reads them as functor mappings).
 *
 *  - `@id` names an object id;
 *  - `[[text]]` names an object id, the slug of an id (`[[Group Theory]]` → `group-theory`) or
 *    the title of an object (of the document's category first, else of one object in the project);
 *  - `[text](./other.md)` names a document, relative to the referring document's folder
 *    (`/docs/other.md`: relative to the project root); links that leave the root resolve to nothing.
 */
import { posix } from "node:path";
import { slugFromFileName } from "../frontmatter.js";
import type { CategoryEditor } from "../store/editor.js";
import type { ImportCandidate } from "./read-documents.js";
import { isValidObjectId } from "./read-documents.js";
import type { DocumentReference } from "./references.js";
import { PLAIN_RELATION, relationMorphismId } from "./relations.js";
import type { ProposedMorphism, ReferenceKind, UnresolvedReference } from "./types.js";

export const REFERENCE_MORPHISM_NAME = PLAIN_RELATION;

/** The id of a morphism for a reference without a verb (`ref--<source>--<target>`). */
export function referenceMorphismId(source: string, target: string): string {
  return relationMorphismId(PLAIN_RELATION, source, target);
}

/** A resolved reference from an object of one category to an object of another. */
export interface Crossing {
  /** After a passive verb, `source` is the object named and `target` the document's object. */
  source: string;
  target: string;
  sourceCategory: string;
  targetCategory: string;
  relation: string;
  kind: ReferenceKind;
  /** The object whose document holds the reference, and the reference as written. */
  document: string;
  reference: string;
}

export interface MorphismPlan {
  proposed: ProposedMorphism[];
  existing: string[];
  unresolved: UnresolvedReference[];
  crossings: Crossing[];
}

export interface MorphismPlanContext {
  editor: CategoryEditor;
  /** Documents that are objects after the object part: path → object id. */
  accepted: ReadonlyMap<string, string>;
  /** Existing objects' documents: path → object id. */
  documentOwners: ReadonlyMap<string, string>;
  /** Ids of documents this import skipped. */
  skippedIds: ReadonlySet<string>;
}

type Resolution = { target: string } | { reason: string };

interface Link {
  source: string;
  target: string;
  relation: string;
  kind: ReferenceKind;
  document: string;
  reference: string;
}

export function planMorphisms(candidates: readonly ImportCandidate[], context: MorphismPlanContext): MorphismPlan {
  const { editor } = context;
  const plan: MorphismPlan = { proposed: [], existing: [], unresolved: [], crossings: [] };
  const titles = titleIndex(editor);

  const byId = (id: string, written: string): Resolution => {
    if (editor.categoryOf(id) !== undefined) return { target: id };
    if (context.skippedIds.has(id)) return { reason: `object '${id}' was skipped by this import` };
    return { reason: `no object '${written}' in the project` };
  };

  const resolve = (source: ImportCandidate, home: string, reference: DocumentReference): Resolution => {
    switch (reference.kind) {
      case "@ref":
        return byId(reference.value, reference.value);
      case "wikilink": {
        const slug = slugFromFileName(reference.value);
        if (editor.categoryOf(reference.value) !== undefined) return { target: reference.value };
        if (editor.categoryOf(slug) !== undefined) return { target: slug };
        const key = reference.value.trim().toLowerCase();
        const titled = titles.get(`${home}\u0000${key}`) ?? titles.get(`\u0000${key}`);
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
        return byId(target, target);
      }
    }
  };

  // One link per pair, in order of appearance, named by the first reference of the pair with a verb.
  const links = new Map<string, Link>();
  const crossings = new Map<string, Crossing>();
  for (const candidate of candidates) {
    const document = context.accepted.get(candidate.path);
    if (document === undefined || document !== candidate.id) continue;
    const home = editor.categoryOf(document);
    if (home === undefined) continue;
    for (const reference of candidate.references) {
      const resolution = resolve(candidate, home, reference);
      if ("reason" in resolution) {
        plan.unresolved.push({ source: document, reference: reference.value, kind: reference.kind, reason: resolution.reason });
        continue;
      }
      if (resolution.target === document) continue;
      const inverse = reference.relation?.inverse === true;
      const source = inverse ? resolution.target : document;
      const target = inverse ? document : resolution.target;
      const relation = reference.relation?.name ?? PLAIN_RELATION;
      const pair = `${source}\u0000${target}`;
      const sourceCategory = editor.categoryOf(source) ?? home;
      const targetCategory = editor.categoryOf(target) ?? home;
      const link = { source, target, relation, kind: reference.kind, document, reference: reference.value };
      if (sourceCategory !== targetCategory) {
        const known = crossings.get(pair);
        if (known === undefined) crossings.set(pair, { ...link, sourceCategory, targetCategory });
        else if (known.relation === PLAIN_RELATION && relation !== PLAIN_RELATION) Object.assign(known, { relation, kind: reference.kind });
        continue;
      }
      const known = links.get(pair);
      if (known === undefined) links.set(pair, link);
      else if (known.relation === PLAIN_RELATION && relation !== PLAIN_RELATION) Object.assign(known, { relation, kind: reference.kind });
    }
  }

  for (const link of links.values()) {
    const { source, target, relation } = link;
    const id = relationMorphismId(relation, source, target);
    const plain = referenceMorphismId(source, target);
    if (editor.hasMorphism(id)) {
      plan.existing.push(id);
    } else if (editor.hasMorphism(plain)) {
      // Made by an earlier import (or renamed since): the pair is linked already.
      plan.existing.push(plain);
    } else if (!isValidObjectId(id)) {
      plan.unresolved.push({
        source: link.document,
        reference: link.reference,
        kind: link.kind,
        reason: `the morphism id '${id.slice(0, 40)}…' would be longer than 200 characters`,
      });
    } else {
      const categoryId = editor.categoryOf(source) ?? "";
      editor.addMorphism(categoryId, { id, name: relation, source, target, metadata: { reference: link.kind } });
      plan.proposed.push({ id, name: relation, source, target, reason: link.kind, categoryId });
    }
  }
  plan.crossings = [...crossings.values()];
  return plan;
}

/**
 * Lower-cased title → object id, keyed `<category>\u0000<title>` per category and `\u0000<title>`
 * over the project; null when several objects share the title.
 */
function titleIndex(editor: CategoryEditor): Map<string, string | null> {
  const titles = new Map<string, string | null>();
  const add = (key: string, id: string) => titles.set(key, titles.has(key) && titles.get(key) !== id ? null : id);
  for (const category of editor.model.categories) {
    for (const object of category.objects) {
      const title = object.title.trim().toLowerCase();
      add(`${category.id}\u0000${title}`, object.id);
      add(`\u0000${title}`, object.id);
    }
  }
  return titles;
}
