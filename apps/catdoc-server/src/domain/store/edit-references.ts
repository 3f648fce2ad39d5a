/**
 * What refers to objects and morphisms about to be removed: functor mapping entries and
 * natural-transformation components. Ids of objects and morphisms are unique in a project, so
 * an entry refers to an id when its key or value is that id.
 */
import { isMap, isSeq } from "yaml";
import type { EditState } from "./edit-state.js";
import { blockSeqAt, deleteEntries } from "./yaml-edit.js";

type Ids = ReadonlySet<string>;

/** The functor and natural-transformation nodes, without creating missing sections. */
function mappingsOf(state: EditState) {
  const root = state.doc.contents;
  const items = (key: string) => {
    const seq = isMap(root) ? root.get(key, true) : undefined;
    return isSeq(seq) ? seq.items : [];
  };
  return { functorNodes: items("functors"), ntNodes: items("naturalTransformations") };
}

/** Entries naming a removed object or morphism, as readable strings. */
export function referencesTo(state: EditState, objects: Ids, morphisms: Ids): string[] {
  const found: string[] = [];
  for (const functor of state.model.functors) {
    for (const [key, value] of Object.entries(functor.objectMapping)) {
      if (objects.has(key) || objects.has(value)) found.push(`functor '${functor.id}' maps object '${key}' → '${value}'`);
    }
    for (const [key, value] of Object.entries(functor.morphismMapping)) {
      if (morphisms.has(key) || morphisms.has(value)) found.push(`functor '${functor.id}' maps morphism '${key}' → '${value}'`);
    }
  }
  for (const nt of state.model.naturalTransformations) {
    for (const [key, value] of Object.entries(nt.components)) {
      if (objects.has(key) || morphisms.has(value)) found.push(`natural transformation '${nt.id}' has component '${key}' → '${value}'`);
    }
  }
  return found;
}

/** Deletes those entries from the document and the model. */
export function removeReferences(state: EditState, objects: Ids, morphisms: Ids): void {
  const { functorNodes, ntNodes } = mappingsOf(state);
  const dropObject = (key: string, value: string) => objects.has(key) || objects.has(value);
  const dropMorphism = (key: string, value: string) => morphisms.has(key) || morphisms.has(value);
  const dropComponent = (key: string, value: string) => objects.has(key) || morphisms.has(value);
  state.model.functors.forEach((functor, i) => {
    const node = functorNodes[i];
    const objectMapping = isMap(node) ? node.get("objectMapping", true) : undefined;
    const morphismMapping = isMap(node) ? node.get("morphismMapping", true) : undefined;
    if (isMap(objectMapping)) deleteEntries(objectMapping, dropObject);
    if (isMap(morphismMapping)) deleteEntries(morphismMapping, dropMorphism);
    for (const [key, value] of Object.entries(functor.objectMapping)) if (dropObject(key, value)) delete functor.objectMapping[key];
    for (const [key, value] of Object.entries(functor.morphismMapping)) if (dropMorphism(key, value)) delete functor.morphismMapping[key];
  });
  state.model.naturalTransformations.forEach((nt, i) => {
    const node = ntNodes[i];
    const components = isMap(node) ? node.get("components", true) : undefined;
    if (isMap(components)) deleteEntries(components, dropComponent);
    for (const [key, value] of Object.entries(nt.components)) if (dropComponent(key, value)) delete nt.components[key];
  });
}

/** Deletes morphisms of one category from the document and the model. */
export function removeMorphisms(state: EditState, categoryId: string, ids: Ids): void {
  if (ids.size === 0) return;
  const { category, node } = state.requireCategory(categoryId);
  const seq = blockSeqAt(state.doc, node, "morphisms");
  seq.items = seq.items.filter((item) => !(isMap(item) && ids.has(String(item.get("id")))));
  category.morphisms = category.morphisms.filter((m) => !ids.has(m.id));
  for (const id of ids) {
    state.morphisms.delete(id);
    state.record(`remove morphism '${id}' from category '${categoryId}'`);
  }
}
