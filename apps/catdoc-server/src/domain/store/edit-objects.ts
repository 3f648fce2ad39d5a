/** Adding, updating and removing objects (with their identities) in an edit. */
import { CatDocConflictError, CatDocInputError, CatDocNotFoundError } from "../errors.js";
import { identityIdFor } from "../identity.js";
import type { CatDocObject, Morphism } from "../model.js";
import type { AddObjectOptions, NewObject, ObjectPatch, RemovalReport, RemoveOptions, UpsertOutcome } from "./edit-inputs.js";
import { checkNewId, checkText } from "./edit-state.js";
import type { EditState } from "./edit-state.js";
import { removeMorphisms, removeReferences, referencesTo } from "./edit-references.js";
import { appendItem, blockMapAt, blockSeqAt, findById, setField } from "./yaml-edit.js";

function plainObject(object: CatDocObject): Record<string, unknown> {
  return {
    id: object.id,
    title: object.title,
    domain: object.domain,
    ...(object.metadata === undefined ? {} : { metadata: object.metadata }),
    ...(object.content === undefined ? {} : { content: object.content }),
  };
}

export function addObject(state: EditState, categoryId: string, input: NewObject, options: AddObjectOptions = {}): void {
  const { category, node } = state.requireCategory(categoryId);
  const home = state.objectHome.get(input.id);
  checkNewId("object", input.id, home !== undefined, `category '${home ?? ""}'`);
  const object: CatDocObject = {
    id: input.id,
    title: checkText("title", input.title),
    domain: checkText("domain", input.domain),
    ...(input.metadata === undefined ? {} : { metadata: structuredClone(input.metadata) }),
    ...(input.content === undefined ? {} : { content: input.content }),
  };
  const withIdentity = options.identity ?? true;
  const identityId = identityIdFor(input.id);
  const taken = state.morphisms.get(identityId);
  if (withIdentity && taken !== undefined) {
    throw new CatDocConflictError(
      `Morphism '${identityId}' (the identity id for '${input.id}') already exists in category '${taken.categoryId}'`,
      { kind: "morphism", id: identityId },
    );
  }
  appendItem(state.doc, blockSeqAt(state.doc, node, "objects"), plainObject(object));
  category.objects.push(object);
  state.objectHome.set(object.id, categoryId);
  state.record(`add object '${object.id}' to category '${categoryId}'`);
  if (withIdentity) {
    const identity: Morphism = {
      id: identityId,
      name: `id_${input.id}`,
      source: input.id,
      target: input.id,
      metadata: { isIdentity: true },
    };
    appendItem(state.doc, blockSeqAt(state.doc, node, "morphisms"), { ...identity });
    category.morphisms.push(identity);
    state.morphisms.set(identityId, { morphism: identity, categoryId });
    state.record(`add identity '${identityId}' to category '${categoryId}'`);
  }
}

function findObject(state: EditState, objectId: string) {
  const categoryId = state.objectHome.get(objectId);
  if (categoryId === undefined) throw new CatDocNotFoundError("object", objectId);
  const { category, node } = state.requireCategory(categoryId);
  const objects = blockSeqAt(state.doc, node, "objects");
  const found = findById(objects, objectId);
  const index = category.objects.findIndex((o) => o.id === objectId);
  const object = category.objects[index];
  if (found === undefined || object === undefined) throw new CatDocNotFoundError("object", objectId, { categoryId });
  return { categoryId, category, categoryNode: node, objects, found, object, index };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Changes the fields named in `patch`; returns whether anything changed. */
export function updateObject(state: EditState, objectId: string, patch: ObjectPatch): boolean {
  const { object, found } = findObject(state, objectId);
  if (patch.title === undefined && patch.domain === undefined && patch.content === undefined && patch.metadata === undefined) {
    throw new CatDocInputError(`Nothing to update for object '${objectId}': give title, domain, content or metadata`);
  }
  const title = patch.title === undefined ? undefined : checkText("title", patch.title);
  const domain = patch.domain === undefined ? undefined : checkText("domain", patch.domain);
  const changed: string[] = [];
  if (title !== undefined && title !== object.title) {
    setField(state.doc, found.node, "title", title);
    object.title = title;
    changed.push("title");
  }
  if (domain !== undefined && domain !== object.domain) {
    setField(state.doc, found.node, "domain", domain);
    object.domain = domain;
    changed.push("domain");
  }
  if (patch.content === null && object.content !== undefined) {
    found.node.delete("content");
    delete object.content;
    changed.push("content");
  } else if (typeof patch.content === "string" && patch.content !== object.content) {
    setField(state.doc, found.node, "content", patch.content);
    object.content = patch.content;
    changed.push("content");
  }
  if (patch.metadata !== undefined) {
    const metadata = { ...(object.metadata ?? {}) };
    const touched = Object.entries(patch.metadata).filter(([key, value]) =>
      value === null ? key in metadata : !same(metadata[key], value),
    );
    if (touched.length > 0) {
      const node = blockMapAt(state.doc, found.node, "metadata");
      for (const [key, value] of touched) {
        if (value === null) {
          node.delete(key);
          delete metadata[key];
        } else {
          setField(state.doc, node, key, value);
          metadata[key] = structuredClone(value);
        }
      }
      object.metadata = metadata;
      changed.push("metadata");
    }
  }
  if (changed.length > 0) state.record(`update object '${objectId}' (${changed.join(", ")})`);
  return changed.length > 0;
}

/** Adds the object to the category, or updates it there; CONFLICT if it lives elsewhere. */
export function upsertObject(state: EditState, categoryId: string, input: NewObject, options: AddObjectOptions = {}): UpsertOutcome {
  const home = state.objectHome.get(input.id);
  if (home === undefined) {
    addObject(state, categoryId, input, options);
    return "added";
  }
  if (home !== categoryId) {
    throw new CatDocConflictError(`Object '${input.id}' already exists in category '${home}', not in '${categoryId}'`, {
      kind: "object",
      id: input.id,
      categoryId: home,
    });
  }
  const patch: ObjectPatch = { title: input.title, domain: input.domain };
  if (input.metadata !== undefined) patch.metadata = input.metadata;
  if (input.content !== undefined) patch.content = input.content;
  return updateObject(state, input.id, patch) ? "updated" : "unchanged";
}

/** Removes an object, its endomorphisms and (with cascade) everything that refers to it. */
export function removeObject(state: EditState, objectId: string, options: RemoveOptions = {}): RemovalReport {
  const { categoryId, category, objects, found, index } = findObject(state, objectId);
  const own = category.morphisms.filter((m) => m.source === objectId && m.target === objectId).map((m) => m.id);
  const linked = category.morphisms.filter((m) => (m.source === objectId) !== (m.target === objectId)).map((m) => m.id);
  const gone = new Set([...own, ...linked]);
  const references = referencesTo(state, new Set([objectId]), gone);
  if (options.cascade !== true && (linked.length > 0 || references.length > 0)) {
    throw new CatDocConflictError(
      `Object '${objectId}' is still referenced (${[...linked.map((id) => `morphism '${id}'`), ...references].join(", ")}); remove those first or use cascade`,
      { kind: "object", id: objectId, morphisms: linked, references },
    );
  }
  removeReferences(state, new Set([objectId]), gone);
  removeMorphisms(state, categoryId, gone);
  objects.items.splice(found.index, 1);
  category.objects.splice(index, 1);
  state.objectHome.delete(objectId);
  state.record(`remove object '${objectId}' from category '${categoryId}'`);
  return { objects: [objectId], morphisms: [...gone], references };
}
