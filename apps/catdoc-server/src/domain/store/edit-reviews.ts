/**
 * Writing review stamps (change-impact/links.ts): `reviewed: {source, target}` on a morphism, and
 * under `reviewed: {<object id>: {source, target}}` of a functor or natural transformation. Each
 * stamp is one flow-style line; the key is added at the end of its mapping or replaced in place,
 * so comments and key order survive.
 */
import { isMap } from "yaml";
import type { YAMLMap, YAMLSeq } from "yaml";
import { CatDocNotFoundError } from "../errors.js";
import type { ReviewStamp } from "../model.js";
import type { EditState } from "./edit-state.js";
import { blockMapAt, blockSeqAt } from "./yaml-edit.js";

/** What a stamp is written on. */
export type StampTarget =
  | { kind: "morphism"; categoryId: string; morphismId: string }
  | { kind: "mapping"; functorId: string; objectId: string }
  | { kind: "component"; naturalTransformationId: string; objectId: string };

const sameStamp = (a: ReviewStamp | undefined, b: ReviewStamp) => a?.source === b.source && a.target === b.target;

function setStampAt(state: EditState, map: YAMLMap, key: string, stamp: ReviewStamp): void {
  map.set(key, state.doc.createNode({ source: stamp.source, target: stamp.target }, { flow: true }));
}

/**
 * The item of a list with id `id` (its first), through an index of the list built once: `--all`
 * stamps thousands of morphisms, and a scan per stamp would be quadratic. Rebuilt when the list's
 * length changed since (an item added or removed in the same edit).
 */
const itemIndexes = new WeakMap<YAMLSeq, { length: number; byId: Map<string, YAMLMap> }>();

function itemById(seq: YAMLSeq, id: string): YAMLMap | undefined {
  let index = itemIndexes.get(seq);
  if (index === undefined || index.length !== seq.items.length) {
    const byId = new Map<string, YAMLMap>();
    for (const node of seq.items) {
      if (!isMap(node)) continue;
      const key = String(node.get("id"));
      if (!byId.has(key)) byId.set(key, node);
    }
    index = { length: seq.items.length, byId };
    itemIndexes.set(seq, index);
  }
  return index.byId.get(id);
}

function sectionItem(state: EditState, section: "functors" | "naturalTransformations", id: string): YAMLMap {
  const found = itemById(state.section(section), id);
  if (found === undefined) throw new CatDocNotFoundError(section === "functors" ? "functor" : "naturalTransformation", id);
  return found;
}

/** Writes `stamp` for `target`; returns whether anything changed. */
export function setReviewStamp(state: EditState, target: StampTarget, stamp: ReviewStamp): boolean {
  if (target.kind === "morphism") {
    const entry = state.morphisms.get(target.morphismId);
    if (entry === undefined || entry.categoryId !== target.categoryId) {
      throw new CatDocNotFoundError("morphism", target.morphismId, { categoryId: target.categoryId });
    }
    if (sameStamp(entry.morphism.reviewed, stamp)) return false;
    const { node } = state.requireCategory(target.categoryId);
    const found = itemById(blockSeqAt(state.doc, node, "morphisms"), target.morphismId);
    if (found === undefined) throw new CatDocNotFoundError("morphism", target.morphismId, { categoryId: target.categoryId });
    setStampAt(state, found, "reviewed", stamp);
    entry.morphism.reviewed = { ...stamp };
    state.record(`review morphism '${target.morphismId}'`);
    return true;
  }
  const owner =
    target.kind === "mapping" ? state.functors.get(target.functorId) : state.naturalTransformations.get(target.naturalTransformationId);
  const ownerId = target.kind === "mapping" ? target.functorId : target.naturalTransformationId;
  if (owner === undefined) throw new CatDocNotFoundError(target.kind === "mapping" ? "functor" : "naturalTransformation", ownerId);
  if (sameStamp(owner.reviewed?.[target.objectId], stamp)) return false;
  const node = sectionItem(state, target.kind === "mapping" ? "functors" : "naturalTransformations", ownerId);
  setStampAt(state, blockMapAt(state.doc, node, "reviewed"), target.objectId, stamp);
  owner.reviewed = { ...owner.reviewed, [target.objectId]: { ...stamp } };
  state.record(`review ${target.kind === "mapping" ? "object mapping" : "component"} '${ownerId}/${target.objectId}'`);
  return true;
}
