/**
 * Renaming an id everywhere it is used, in one edit: a category (its functors' source and target),
 * an object (the morphisms' endpoints, functor object mappings and their review stamps, natural
 * transformation components and their stamps, and its identity `id-<object>` when the identity
 * follows that convention), a morphism (functor morphism mappings, components, the composites
 * that name it), a functor (the natural transformations on it) or a natural transformation.
 * A new id that is taken is CONFLICT, an unknown old id NOT_FOUND; both before anything changes.
 * Values and keys are changed in place, so their quoting, comments and order stay.
 */
import { isMap, isScalar, isSeq } from "yaml";
import type { YAMLMap } from "yaml";
import { CatDocConflictError, CatDocNotFoundError } from "../errors.js";
import { identityIdFor } from "../identity.js";
import { checkNewId } from "./edit-state.js";
import type { EditState } from "./edit-state.js";
import { blockSeqAt, findById } from "./yaml-edit.js";

export type RenameKind = "category" | "object" | "morphism" | "functor" | "naturalTransformation";

/** One id renamed: [old, new]. */
export type RenamedId = [string, string];

const scalarText = (node: unknown) => (isScalar(node) ? String(node.value) : undefined);

/** Sets `map[key]` to `to` where it is `from`. */
function renameValueAt(map: unknown, key: string, from: string, to: string): void {
  if (!isMap(map)) return;
  const node = map.get(key, true);
  if (isScalar(node) && String(node.value) === from) node.value = to;
}

/** Renames the key `from` of the mapping under `key` (position kept). */
function renameKeyUnder(owner: unknown, key: string, from: string, to: string): void {
  const map = isMap(owner) ? owner.get(key, true) : undefined;
  if (!isMap(map)) return;
  for (const pair of map.items) {
    if (scalarText(pair.key) !== from) continue;
    if (isScalar(pair.key)) pair.key.value = to;
    else pair.key = to;
  }
}

/** Renames the values `from` of the mapping under `key`. */
function renameValuesUnder(owner: unknown, key: string, from: string, to: string): void {
  const map = isMap(owner) ? owner.get(key, true) : undefined;
  if (!isMap(map)) return;
  for (const pair of map.items) if (isScalar(pair.value) && String(pair.value.value) === from) pair.value.value = to;
}

function renameRecordKey<T>(record: Record<string, T> | undefined, from: string, to: string): Record<string, T> | undefined {
  if (record === undefined || !(from in record)) return record;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value]));
}

function renameRecordValues(record: Record<string, string>, from: string, to: string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, value === from ? to : value]));
}

function sectionItems(state: EditState, key: "functors" | "naturalTransformations") {
  const root = state.doc.contents;
  const seq = isMap(root) ? root.get(key, true) : undefined;
  return isSeq(seq) ? seq.items : [];
}

function renameCategory(state: EditState, from: string, to: string): void {
  const { category, node } = state.requireCategory(from);
  checkNewId("category", to, state.categories.has(to));
  renameValueAt(node, "id", from, to);
  category.id = to;
  state.categories.delete(from);
  state.categories.set(to, category);
  for (const [id, home] of state.objectHome) if (home === from) state.objectHome.set(id, to);
  for (const entry of state.morphisms.values()) if (entry.categoryId === from) entry.categoryId = to;
  const nodes = sectionItems(state, "functors");
  state.model.functors.forEach((functor, i) => {
    if (functor.sourceCategory === from) {
      renameValueAt(nodes[i], "sourceCategory", from, to);
      functor.sourceCategory = to;
    }
    if (functor.targetCategory === from) {
      renameValueAt(nodes[i], "targetCategory", from, to);
      functor.targetCategory = to;
    }
  });
}

function renameObject(state: EditState, from: string, to: string): RenamedId[] {
  const categoryId = state.objectHome.get(from);
  if (categoryId === undefined) throw new CatDocNotFoundError("object", from);
  const home = state.objectHome.get(to);
  checkNewId("object", to, home !== undefined, `category '${home ?? ""}'`);
  // The identity follows the object when it follows the convention id-<object>.
  const identity = state.morphisms.get(identityIdFor(from));
  const renameIdentity =
    identity !== undefined && identity.categoryId === categoryId && identity.morphism.source === from && identity.morphism.target === from;
  if (renameIdentity) {
    const taken = state.morphisms.get(identityIdFor(to));
    if (taken !== undefined) {
      throw new CatDocConflictError(
        `Morphism '${identityIdFor(to)}' (the identity id for '${to}') already exists in category '${taken.categoryId}'`,
        { kind: "morphism", id: identityIdFor(to) },
      );
    }
  }
  const { category, node } = state.requireCategory(categoryId);
  const objectNode = findById(blockSeqAt(state.doc, node, "objects"), from);
  if (objectNode !== undefined) renameValueAt(objectNode.node, "id", from, to);
  for (const object of category.objects) if (object.id === from) object.id = to;
  state.objectHome.delete(from);
  state.objectHome.set(to, categoryId);
  for (const item of blockSeqAt(state.doc, node, "morphisms").items) {
    renameValueAt(item, "source", from, to);
    renameValueAt(item, "target", from, to);
  }
  for (const morphism of category.morphisms) {
    if (morphism.source === from) morphism.source = to;
    if (morphism.target === from) morphism.target = to;
  }
  const functorNodes = sectionItems(state, "functors");
  const sourceFunctors = new Set<string>();
  state.model.functors.forEach((functor, i) => {
    if (functor.sourceCategory === categoryId) {
      sourceFunctors.add(functor.id);
      renameKeyUnder(functorNodes[i], "objectMapping", from, to);
      renameKeyUnder(functorNodes[i], "reviewed", from, to);
      functor.objectMapping = renameRecordKey(functor.objectMapping, from, to) ?? {};
      const reviewed = renameRecordKey(functor.reviewed, from, to);
      if (reviewed !== undefined) functor.reviewed = reviewed;
    }
    if (functor.targetCategory === categoryId) {
      renameValuesUnder(functorNodes[i], "objectMapping", from, to);
      functor.objectMapping = renameRecordValues(functor.objectMapping, from, to);
    }
  });
  const ntNodes = sectionItems(state, "naturalTransformations");
  state.model.naturalTransformations.forEach((nt, i) => {
    if (!sourceFunctors.has(nt.sourceFunctor)) return;
    renameKeyUnder(ntNodes[i], "components", from, to);
    renameKeyUnder(ntNodes[i], "reviewed", from, to);
    nt.components = renameRecordKey(nt.components, from, to) ?? {};
    const reviewed = renameRecordKey(nt.reviewed, from, to);
    if (reviewed !== undefined) nt.reviewed = reviewed;
  });
  state.record(`rename object '${from}' → '${to}' in category '${categoryId}'`);
  const renamed: RenamedId[] = [[from, to]];
  if (renameIdentity) {
    renamed.push(...renameMorphism(state, identityIdFor(from), identityIdFor(to)));
    // Its name follows too when it is the default one (id_<object>).
    const entry = state.morphisms.get(identityIdFor(to));
    if (entry !== undefined && entry.morphism.name === `id_${from}`) {
      const found = findById(blockSeqAt(state.doc, node, "morphisms"), identityIdFor(to));
      if (found !== undefined) renameValueAt(found.node, "name", `id_${from}`, `id_${to}`);
      entry.morphism.name = `id_${to}`;
    }
  }
  return renamed;
}

function renameMorphism(state: EditState, from: string, to: string): RenamedId[] {
  const entry = state.morphisms.get(from);
  if (entry === undefined) throw new CatDocNotFoundError("morphism", from);
  const taken = state.morphisms.get(to);
  checkNewId("morphism", to, taken !== undefined, `category '${taken?.categoryId ?? ""}'`);
  const { categoryId, morphism } = entry;
  const { category, node } = state.requireCategory(categoryId);
  const items = blockSeqAt(state.doc, node, "morphisms").items;
  const found = findById(blockSeqAt(state.doc, node, "morphisms"), from);
  if (found !== undefined) renameValueAt(found.node, "id", from, to);
  morphism.id = to;
  state.morphisms.delete(from);
  state.morphisms.set(to, entry);
  // Composites (composite: [f, g]) that name it.
  for (const item of items) {
    const composite = isMap(item) ? item.get("composite", true) : undefined;
    if (isSeq(composite)) for (const step of composite.items) if (isScalar(step) && String(step.value) === from) step.value = to;
  }
  for (const other of category.morphisms) {
    const composite = (other as Record<string, unknown>)["composite"];
    if (Array.isArray(composite)) {
      (other as Record<string, unknown>)["composite"] = composite.map((step: unknown) => (step === from ? to : step));
    }
  }
  const functorNodes = sectionItems(state, "functors");
  state.model.functors.forEach((functor, i) => {
    if (functor.sourceCategory === categoryId) {
      renameKeyUnder(functorNodes[i], "morphismMapping", from, to);
      functor.morphismMapping = renameRecordKey(functor.morphismMapping, from, to) ?? {};
    }
    if (functor.targetCategory === categoryId) {
      renameValuesUnder(functorNodes[i], "morphismMapping", from, to);
      functor.morphismMapping = renameRecordValues(functor.morphismMapping, from, to);
    }
  });
  const ntNodes = sectionItems(state, "naturalTransformations");
  state.model.naturalTransformations.forEach((nt, i) => {
    if (state.functors.get(nt.sourceFunctor)?.targetCategory !== categoryId) return;
    renameValuesUnder(ntNodes[i], "components", from, to);
    nt.components = renameRecordValues(nt.components, from, to);
  });
  state.record(`rename morphism '${from}' → '${to}' in category '${categoryId}'`);
  return [[from, to]];
}

function renameFunctor(state: EditState, from: string, to: string): void {
  const functor = state.requireFunctor(from);
  checkNewId("functor", to, state.functors.has(to));
  const found = findById(state.section("functors"), from);
  if (found !== undefined) renameValueAt(found.node, "id", from, to);
  functor.id = to;
  state.functors.delete(from);
  state.functors.set(to, functor);
  const ntNodes = sectionItems(state, "naturalTransformations");
  state.model.naturalTransformations.forEach((nt, i) => {
    if (nt.sourceFunctor === from) {
      renameValueAt(ntNodes[i], "sourceFunctor", from, to);
      nt.sourceFunctor = to;
    }
    if (nt.targetFunctor === from) {
      renameValueAt(ntNodes[i], "targetFunctor", from, to);
      nt.targetFunctor = to;
    }
  });
}

function renameNaturalTransformation(state: EditState, from: string, to: string): void {
  const nt = state.naturalTransformations.get(from);
  if (nt === undefined) throw new CatDocNotFoundError("naturalTransformation", from);
  checkNewId("naturalTransformation", to, state.naturalTransformations.has(to));
  const found = findById(state.section("naturalTransformations"), from);
  if (found !== undefined) renameValueAt(found.node as YAMLMap, "id", from, to);
  nt.id = to;
  state.naturalTransformations.delete(from);
  state.naturalTransformations.set(to, nt);
}

const LABEL: Record<RenameKind, string> = {
  category: "category",
  object: "object",
  morphism: "morphism",
  functor: "functor",
  naturalTransformation: "natural transformation",
};

/** Renames `from` to `to` everywhere; returns the ids renamed (an object's identity too). */
export function renameId(state: EditState, kind: RenameKind, from: string, to: string): RenamedId[] {
  if (from === to) return [];
  switch (kind) {
    case "object":
      return renameObject(state, from, to);
    case "morphism":
      return renameMorphism(state, from, to);
    case "category":
      renameCategory(state, from, to);
      break;
    case "functor":
      renameFunctor(state, from, to);
      break;
    case "naturalTransformation":
      renameNaturalTransformation(state, from, to);
      break;
  }
  state.record(`rename ${LABEL[kind]} '${from}' → '${to}'`);
  return [[from, to]];
}
