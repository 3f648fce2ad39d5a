/**
 * The authoring operations the import and review paths did not need: update and remove of
 * categories, morphisms, functors and natural transformations, and single functor mapping
 * entries and natural-transformation components. Like the rest of the editor, each checks its
 * ids before it touches the document (unknown → NOT_FOUND, still referenced → CONFLICT unless
 * cascade), changes values in place (a scalar keeps its style and comments), and keeps the model
 * copy in step.
 */
import { isMap, isScalar } from "yaml";
import type { YAMLMap } from "yaml";
import { CatDocConflictError, CatDocInputError, CatDocNotFoundError } from "../errors.js";
import { MorphismSchema } from "../model.js";
import type { Functor, Morphism, NaturalTransformation } from "../model.js";
import type { RemovalReport, RemoveOptions } from "./edit-inputs.js";
import { removeObject } from "./edit-objects.js";
import { addMorphism } from "./edit-structure.js";
import { checkText } from "./edit-state.js";
import type { EditState } from "./edit-state.js";
import { blockMapAt, blockSeqAt, findById, setField } from "./yaml-edit.js";

/** Fields of a morphism an update may change; any other key the model's schema knows (composite) passes through it. */
export interface MorphismPatch {
  name?: string;
  source?: string;
  target?: string;
  /** Merged into the metadata; a null value removes that key. */
  metadata?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A mapping patch: key → new id, or null to remove the entry. */
export type MappingPatch = Record<string, string | null>;

export interface FunctorPatch {
  name?: string;
  objectMapping?: MappingPatch;
  morphismMapping?: MappingPatch;
}

export interface NaturalTransformationPatch {
  name?: string;
  components?: MappingPatch;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Sets a scalar in place (its quoting and comments stay), or replaces the node. */
export function setScalar(state: EditState, map: YAMLMap, key: string, value: unknown): void {
  const node = map.get(key, true);
  if (isScalar(node) && (typeof value === "string" || typeof value === "number" || typeof value === "boolean")) node.value = value;
  // A list of ids (composite: [f, g]) is written on one line.
  else if (Array.isArray(value)) map.set(key, state.doc.createNode(value, { flow: true }));
  else setField(state.doc, map, key, value);
}

function categoryNode(state: EditState, categoryId: string): YAMLMap {
  return state.requireCategory(categoryId).node;
}

function sectionNode(state: EditState, section: "functors" | "naturalTransformations", id: string): YAMLMap {
  const found = findById(state.section(section), id);
  if (found === undefined) throw new CatDocNotFoundError(section === "functors" ? "functor" : "naturalTransformation", id);
  return found.node;
}

function requireNaturalTransformation(state: EditState, id: string): NaturalTransformation {
  const nt = state.naturalTransformations.get(id);
  if (nt === undefined) throw new CatDocNotFoundError("naturalTransformation", id);
  return nt;
}

// ---- categories -------------------------------------------------------------------------------

export function updateCategory(state: EditState, categoryId: string, patch: { name?: string }): boolean {
  const { category, node } = state.requireCategory(categoryId);
  if (patch.name === undefined) throw new CatDocInputError(`Nothing to update for category '${categoryId}': give name`);
  const name = checkText("name", patch.name);
  if (name === category.name) return false;
  setScalar(state, node, "name", name);
  category.name = name;
  state.record(`update category '${categoryId}' (name)`);
  return true;
}

/** Removes a category; with objects in it or functors on it, only with cascade (which removes those too). */
export function removeCategory(state: EditState, categoryId: string, options: RemoveOptions = {}): RemovalReport {
  const { category } = state.requireCategory(categoryId);
  const functors = state.model.functors.filter((f) => f.sourceCategory === categoryId || f.targetCategory === categoryId).map((f) => f.id);
  const objects = category.objects.map((o) => o.id);
  if (options.cascade !== true && (objects.length > 0 || functors.length > 0)) {
    const held = [...objects.map((id) => `object '${id}'`), ...functors.map((id) => `functor '${id}'`)];
    throw new CatDocConflictError(
      `Category '${categoryId}' still holds or is used by ${held.slice(0, 10).join(", ")}${held.length > 10 ? ` and ${held.length - 10} more` : ""}; remove those first or use cascade`,
      { kind: "category", id: categoryId, objects, functors },
    );
  }
  const report: RemovalReport = { objects: [], morphisms: [], references: [] };
  for (const functorId of functors) {
    const removed = removeFunctor(state, functorId, { cascade: true });
    report.references.push(...removed.references);
  }
  for (const objectId of objects) {
    const removed = removeObject(state, objectId, { cascade: true });
    report.objects.push(...removed.objects);
    report.morphisms.push(...removed.morphisms);
    report.references.push(...removed.references);
  }
  const rest = category.morphisms.map((m) => m.id);
  if (rest.length > 0) {
    const seq = blockSeqAt(state.doc, categoryNode(state, categoryId), "morphisms");
    seq.items = [];
    for (const id of rest) {
      state.morphisms.delete(id);
      state.record(`remove morphism '${id}' from category '${categoryId}'`);
    }
    report.morphisms.push(...rest);
  }
  const seq = state.section("categories");
  const found = findById(seq, categoryId);
  if (found !== undefined) seq.items.splice(found.index, 1);
  state.model.categories.splice(state.model.categories.indexOf(category), 1);
  state.categories.delete(categoryId);
  state.record(`remove category '${categoryId}'`);
  return report;
}

// ---- morphisms --------------------------------------------------------------------------------

/** The fields of a morphism as the model's schema reads them (a field it does not know is refused). */
export function parseMorphismFields(fields: Record<string, unknown>): Morphism {
  if (fields["reviewed"] !== undefined)
    throw new CatDocInputError("A morphism's review stamp is written by review, not by an edit", { field: "reviewed" });
  const parsed = MorphismSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw new CatDocInputError(`Morphism field '${field}': ${issue?.message ?? "invalid"}`, { field });
  }
  const unknown = Object.keys(fields).filter((key) => fields[key] !== undefined && !(key in parsed.data));
  if (unknown.length > 0) {
    throw new CatDocInputError(`Morphisms have no field ${unknown.map((key) => `'${key}'`).join(", ")}`, { fields: unknown });
  }
  return parsed.data;
}

function findMorphism(state: EditState, morphismId: string) {
  const entry = state.morphisms.get(morphismId);
  if (entry === undefined) throw new CatDocNotFoundError("morphism", morphismId);
  const found = findById(blockSeqAt(state.doc, categoryNode(state, entry.categoryId), "morphisms"), morphismId);
  if (found === undefined) throw new CatDocNotFoundError("morphism", morphismId, { categoryId: entry.categoryId });
  return { ...entry, node: found.node };
}

/** The morphism fields every morphism has; others (composite) are the schema's to know. */
const BASE_FIELDS = new Set(["id", "name", "source", "target", "metadata"]);

/** Adds a morphism whose fields pass the model's schema, extra fields (composite) included. */
export function addMorphismWithFields(state: EditState, categoryId: string, fields: Record<string, unknown>): void {
  const morphism = parseMorphismFields(fields);
  addMorphism(state, categoryId, morphism);
  const extra = Object.entries(morphism).filter(([key, value]) => !BASE_FIELDS.has(key) && value !== undefined);
  if (extra.length === 0) return;
  const { node, morphism: added } = findMorphism(state, morphism.id);
  for (const [key, value] of extra) {
    setScalar(state, node, key, value);
    (added as Record<string, unknown>)[key] = structuredClone(value);
  }
}

/** Changes the fields named in `patch` (each checked by the model's schema); returns whether anything changed. */
export function updateMorphism(state: EditState, morphismId: string, patch: MorphismPatch): boolean {
  const { morphism, categoryId, node } = findMorphism(state, morphismId);
  const keys = Object.keys(patch).filter((key) => patch[key] !== undefined);
  if (keys.length === 0)
    throw new CatDocInputError(`Nothing to update for morphism '${morphismId}': give name, source, target, metadata or composite`);
  if (keys.includes("id")) throw new CatDocInputError("A morphism's id changes with rename, not update", { field: "id" });
  const { metadata: metadataPatch, ...fields } = patch;
  const merged: Record<string, unknown> = { ...morphism };
  for (const [key, value] of Object.entries(fields)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  const metadata = { ...(morphism.metadata ?? {}) };
  if (metadataPatch !== undefined) {
    for (const [key, value] of Object.entries(metadataPatch)) {
      if (value === null) delete metadata[key];
      else metadata[key] = structuredClone(value);
    }
    merged["metadata"] = Object.keys(metadata).length === 0 && morphism.metadata === undefined ? undefined : metadata;
  }
  const next = parseMorphismFields(merged);
  if (fields["source"] !== undefined) state.requireObjectIn(categoryId, next.source);
  if (fields["target"] !== undefined) state.requireObjectIn(categoryId, next.target);
  const changed: string[] = [];
  for (const key of Object.keys(fields)) {
    const value = (next as Record<string, unknown>)[key];
    if (same(value, (morphism as Record<string, unknown>)[key])) continue;
    if (value === undefined) node.delete(key);
    else setScalar(state, node, key, value);
    changed.push(key);
  }
  if (metadataPatch !== undefined && !same(next.metadata ?? {}, morphism.metadata ?? {})) {
    const metaNode = blockMapAt(state.doc, node, "metadata");
    for (const [key, value] of Object.entries(metadataPatch)) {
      if (value === null) metaNode.delete(key);
      else setField(state.doc, metaNode, key, value);
    }
    changed.push("metadata");
  }
  if (changed.length === 0) return false;
  const record = morphism as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!(key in next)) delete record[key];
  Object.assign(morphism, next);
  state.record(`update morphism '${morphismId}' (${changed.join(", ")})`);
  return true;
}

// ---- functors and their mappings --------------------------------------------------------------

/** Sets (or with null removes) the mapping entry of a source object or morphism; returns whether anything changed. */
export function setFunctorMapping(state: EditState, functorId: string, from: string, to: string | null): boolean {
  const functor = state.requireFunctor(functorId);
  let key: "objectMapping" | "morphismMapping";
  if (state.objectHome.get(from) === functor.sourceCategory) key = "objectMapping";
  else if (state.morphisms.get(from)?.categoryId === functor.sourceCategory) key = "morphismMapping";
  // A stale entry (its source id is gone) may still be removed.
  else if (to === null && functor.objectMapping[from] !== undefined) key = "objectMapping";
  else if (to === null && functor.morphismMapping[from] !== undefined) key = "morphismMapping";
  else {
    throw new CatDocNotFoundError("object", from, {
      categoryId: functor.sourceCategory,
      message: `Functor '${functorId}': '${from}' is no object or morphism of its source category '${functor.sourceCategory}'`,
    });
  }
  const mapping = functor[key];
  if (to === null) {
    if (mapping[from] === undefined) return false;
    const node = sectionNode(state, "functors", functorId).get(key, true);
    if (isMap(node)) node.delete(from);
    delete mapping[from];
    state.record(`unmap '${from}' in functor '${functorId}'`);
    return true;
  }
  if (key === "objectMapping") state.requireObjectIn(functor.targetCategory, to);
  else state.requireMorphismIn(functor.targetCategory, to);
  if (mapping[from] === to) return false;
  const node = blockMapAt(state.doc, sectionNode(state, "functors", functorId), key);
  setScalar(state, node, from, to);
  mapping[from] = to;
  state.record(`map '${from}' → '${to}' in functor '${functorId}'`);
  return true;
}

export function updateFunctor(state: EditState, functorId: string, patch: FunctorPatch): boolean {
  const functor = state.requireFunctor(functorId);
  if (patch.name === undefined && patch.objectMapping === undefined && patch.morphismMapping === undefined) {
    throw new CatDocInputError(`Nothing to update for functor '${functorId}': give name, objectMapping or morphismMapping`);
  }
  let changed = false;
  if (patch.name !== undefined) {
    const name = checkText("name", patch.name);
    if (name !== functor.name) {
      setScalar(state, sectionNode(state, "functors", functorId), "name", name);
      functor.name = name;
      state.record(`update functor '${functorId}' (name)`);
      changed = true;
    }
  }
  for (const [from, to] of Object.entries({ ...patch.objectMapping, ...patch.morphismMapping })) {
    if (setFunctorMapping(state, functorId, from, to)) changed = true;
  }
  return changed;
}

/** Removes a functor; natural transformations on it go only with cascade. */
export function removeFunctor(state: EditState, functorId: string, options: RemoveOptions = {}): RemovalReport {
  const functor: Functor = state.requireFunctor(functorId);
  const nts = state.model.naturalTransformations.filter((nt) => nt.sourceFunctor === functorId || nt.targetFunctor === functorId);
  if (options.cascade !== true && nts.length > 0) {
    throw new CatDocConflictError(
      `Functor '${functorId}' is used by natural transformation ${nts.map((nt) => `'${nt.id}'`).join(", ")}; remove those first or use cascade`,
      { kind: "functor", id: functorId, naturalTransformations: nts.map((nt) => nt.id) },
    );
  }
  for (const nt of nts) removeNaturalTransformation(state, nt.id);
  const seq = state.section("functors");
  const found = findById(seq, functorId);
  if (found !== undefined) seq.items.splice(found.index, 1);
  state.model.functors.splice(state.model.functors.indexOf(functor), 1);
  state.functors.delete(functorId);
  state.record(`remove functor '${functorId}'`);
  return { objects: [], morphisms: [], references: nts.map((nt) => `nt:${nt.id}`) };
}

// ---- natural transformations ------------------------------------------------------------------

/** Sets (or with null removes) the component η_A; returns whether anything changed. */
export function setComponent(state: EditState, ntId: string, objectId: string, morphismId: string | null): boolean {
  const nt = requireNaturalTransformation(state, ntId);
  const F = state.requireFunctor(nt.sourceFunctor);
  if (morphismId === null) {
    if (nt.components[objectId] === undefined) {
      if (state.objectHome.get(objectId) !== F.sourceCategory)
        throw new CatDocNotFoundError("object", objectId, { categoryId: F.sourceCategory });
      return false;
    }
    const node = sectionNode(state, "naturalTransformations", ntId).get("components", true);
    if (isMap(node)) node.delete(objectId);
    delete nt.components[objectId];
    state.record(`remove component '${objectId}' of natural transformation '${ntId}'`);
    return true;
  }
  state.requireObjectIn(F.sourceCategory, objectId);
  state.requireMorphismIn(F.targetCategory, morphismId);
  if (nt.components[objectId] === morphismId) return false;
  const node = blockMapAt(state.doc, sectionNode(state, "naturalTransformations", ntId), "components");
  setScalar(state, node, objectId, morphismId);
  nt.components[objectId] = morphismId;
  state.record(`set component '${objectId}' → '${morphismId}' of natural transformation '${ntId}'`);
  return true;
}

export function updateNaturalTransformation(state: EditState, ntId: string, patch: NaturalTransformationPatch): boolean {
  const nt = requireNaturalTransformation(state, ntId);
  if (patch.name === undefined && patch.components === undefined) {
    throw new CatDocInputError(`Nothing to update for natural transformation '${ntId}': give name or components`);
  }
  let changed = false;
  if (patch.name !== undefined) {
    const name = checkText("name", patch.name);
    if (name !== nt.name) {
      setScalar(state, sectionNode(state, "naturalTransformations", ntId), "name", name);
      nt.name = name;
      state.record(`update natural transformation '${ntId}' (name)`);
      changed = true;
    }
  }
  for (const [objectId, morphismId] of Object.entries(patch.components ?? {})) {
    if (setComponent(state, ntId, objectId, morphismId)) changed = true;
  }
  return changed;
}

export function removeNaturalTransformation(state: EditState, ntId: string): RemovalReport {
  const nt = requireNaturalTransformation(state, ntId);
  const seq = state.section("naturalTransformations");
  const found = findById(seq, ntId);
  if (found !== undefined) seq.items.splice(found.index, 1);
  state.model.naturalTransformations.splice(state.model.naturalTransformations.indexOf(nt), 1);
  state.naturalTransformations.delete(ntId);
  state.record(`remove natural transformation '${ntId}'`);
  return { objects: [], morphisms: [], references: [] };
}
