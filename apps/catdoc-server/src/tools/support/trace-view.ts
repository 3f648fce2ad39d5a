/**
 * How catdoc_trace renders paths. Within a category a path is objects and morphisms; across
 * categories it is functor and component steps, then (with a target object) the path inside
 * the target category. minimal: lengths, and the ids of the first (shortest) path only — with
 * findAll, every other path's ids would make minimal most of the answer; standard: every path's
 * ids and names (and the morphisms of each path); full: adds the titles of the objects passed.
 */
import { atLevel, eachAtLevel, lazySchema } from "@local-mcp/core";
import type { ResponseLevel } from "@local-mcp/core";
import { z } from "zod";
import type { CrossCategoryPath, CrossStep, ProjectIndex, TracePath } from "../../domain/index.js";
import { categoryOfObject } from "../../domain/project-index.js";

const MorphismStep = lazySchema(() => z.object({ id: z.string(), source: z.string(), target: z.string(), name: z.string().optional() }));

const CrossStepOutput = lazySchema(() =>
  z.object({
    kind: z.enum(["functor", "naturalTransformation"]),
    id: z.string(),
    fromObject: z.string(),
    toObject: z.string(),
    morphismId: z.string().optional(),
    name: z.string().optional(),
    fromCategory: z.string().optional(),
    toCategory: z.string().optional(),
    categoryId: z.string().optional(),
    componentOf: z.string().optional(),
  }),
);

const ArrivalOutput = lazySchema(() =>
  z.object({
    objectIds: z.array(z.string()),
    morphismIds: z.array(z.string()),
    morphisms: z.array(MorphismStep()).optional(),
  }),
);

export const TracePathOutput = lazySchema(() =>
  z.object({
    length: z.number().int(),
    objectIds: z.array(z.string()).optional(),
    morphismIds: z.array(z.string()).optional(),
    steps: z.array(CrossStepOutput()).optional(),
    resultObject: z.string().optional(),
    arrival: ArrivalOutput().nullable().optional(),
    morphisms: z.array(MorphismStep()).optional(),
    objects: z.array(z.object({ id: z.string(), categoryId: z.string(), title: z.string().optional() })).optional(),
  }),
);

function morphismsAt(level: ResponseLevel, path: TracePath) {
  return eachAtLevel(level, path.morphisms, (m) => ({
    minimal: { id: m.id, source: m.source, target: m.target },
    standard: { name: m.name },
  }));
}

function titled(index: ProjectIndex, categoryId: string, ids: readonly string[]) {
  const category = index.categories.get(categoryId);
  return ids.map((id) => ({
    id,
    categoryId,
    title: category?.objects.get(id)?.title ?? categoryOfObject(index, id)?.objects.get(id)?.title ?? id,
  }));
}

interface PathParts {
  minimal: { length: number } & Record<string, unknown>;
  standard?: Record<string, unknown>;
  full: Record<string, unknown>;
}

/** A path's parts, with its ids at minimal only when `first` (the shortest path); the others' from standard. */
function pathAt(level: ResponseLevel, parts: PathParts, first: boolean) {
  if (first) return atLevel(level, parts);
  const { length, ...ids } = parts.minimal;
  return atLevel(level, { minimal: { length }, standard: { ...ids, ...parts.standard }, full: parts.full });
}

export function withinPathAt(level: ResponseLevel, index: ProjectIndex, path: TracePath, first: boolean) {
  return pathAt(
    level,
    {
      minimal: { length: path.length, objectIds: path.objectIds, morphismIds: path.morphisms.map((m) => m.id) },
      standard: { morphisms: morphismsAt(level, path) },
      full: { objects: titled(index, path.categoryId, path.objectIds) },
    },
    first,
  );
}

function stepParts(step: CrossStep) {
  const minimal = { kind: step.kind, id: step.id, fromObject: step.fromObject, toObject: step.toObject };
  if (step.kind === "functor")
    return { minimal, standard: { name: step.name, fromCategory: step.fromCategory, toCategory: step.toCategory } };
  return {
    minimal: { ...minimal, morphismId: step.morphism.id },
    standard: { name: step.name, categoryId: step.categoryId, componentOf: step.componentOf },
  };
}

export function acrossPathAt(level: ResponseLevel, index: ProjectIndex, path: CrossCategoryPath, first: boolean) {
  const arrival = path.arrival;
  const objects = [
    ...path.steps.map((s) => ({ id: s.fromObject, categoryId: s.kind === "functor" ? s.fromCategory : s.categoryId })),
    ...(arrival === null
      ? [{ id: path.resultObject, categoryId: path.resultCategory }]
      : arrival.objectIds.map((id) => ({ id, categoryId: path.resultCategory }))),
  ];
  return pathAt(
    level,
    {
      minimal: {
        length: path.length,
        steps: eachAtLevel(level, path.steps, stepParts),
        resultObject: path.resultObject,
        arrival:
          arrival === null
            ? null
            : atLevel(level, {
                minimal: { objectIds: arrival.objectIds, morphismIds: arrival.morphisms.map((m) => m.id) },
                standard: { morphisms: morphismsAt(level, arrival) },
              }),
      },
      full: { objects: objects.map((o) => ({ ...o, title: index.categories.get(o.categoryId)?.objects.get(o.id)?.title ?? o.id })) },
    },
    first,
  );
}
