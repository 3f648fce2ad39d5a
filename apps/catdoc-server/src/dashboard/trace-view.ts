/**
 * One answer shape for "how do I get from this document to that one", inside a category or
 * across categories, served by `/api/trace` and printed by `catdoc trace --format json`.
 *
 * Compatible with the original dashboard's trace response (`found`, `paths` as lists of
 * `{id, name, source, target}`, `shortestPath`, `shortestPathLength`); each step also says what
 * kind of arrow it is, so a path may go through functors (A ↦ F(A)) and natural-transformation
 * components (η_A: F(A) → G(A)) as well as morphisms.
 *
 * Which trace runs: with `toCategory`, a cross-category trace into that category (ending at
 * `target` when given); with `categoryId`, a trace inside that category; otherwise inside the
 * source's category, unless the target object is defined in another category, in which case
 * the trace goes across into the target's category.
 */
import { CatDocInputError, categoryOfObject, requireObject, traceAcross, traceObjects } from "../domain/index.js";
import type { SkippedStructure } from "../domain/trace/valid-structures.js";
import type { CrossCategoryPath, CrossStep, MorphismRef, ProjectIndex, TracePath } from "../domain/index.js";

export interface TraceStep {
  kind: "morphism" | "functor" | "naturalTransformation";
  /** Morphism id (for a component step, the component morphism's id), or the functor's id. */
  id: string;
  name: string;
  /** Object the step leaves from. */
  source: string;
  /** Object the step arrives at. */
  target: string;
  /** Category the step starts in. */
  categoryId: string;
  /** Functor steps: the category they arrive in. */
  toCategoryId?: string;
  /** Component steps: the natural transformation, and the object A of η_A. */
  naturalTransformationId?: string;
  componentOf?: string;
}

export interface TraceView {
  source: string;
  /** The target object, or null for a cross-category trace to a category alone. */
  target: string | null;
  found: boolean;
  crossCategory: boolean;
  /** The category searched (same-category trace), else null. */
  categoryId: string | null;
  sourceCategory: string;
  targetCategory: string;
  /** Paths, shortest first (the shortest alone unless `all`). */
  paths: TraceStep[][];
  shortestPath: TraceStep[] | null;
  shortestPathLength: number | null;
  /** True when a bound (depth, path count, search budget) cut the listing short. */
  truncated: boolean;
  /** Functors and natural transformations met and not followed because they fail validation (only when some were). */
  skipped?: SkippedStructure[];
}

export interface TraceRequest {
  source: string;
  target?: string;
  categoryId?: string;
  toCategory?: string;
  all?: boolean;
  /** Longest path listed (morphisms, or functor/component steps across categories); default 10. */
  maxDepth?: number;
  /** Also follow functors and natural transformations that fail validation. */
  includeInvalid?: boolean;
}

function morphismStep(ref: MorphismRef, categoryId: string): TraceStep {
  return { kind: "morphism", id: ref.id, name: ref.name, source: ref.source, target: ref.target, categoryId };
}

/** A path inside one category as the steps the dashboard and `catdoc trace --format json` show. */
export function pathSteps(path: TracePath): TraceStep[] {
  return path.morphisms.map((ref) => morphismStep(ref, path.categoryId));
}

/** A functor or component step across categories, as the dashboard and the CLI show it. */
export function crossStep(step: CrossStep): TraceStep {
  if (step.kind === "functor") {
    return {
      kind: "functor",
      id: step.id,
      name: step.name,
      source: step.fromObject,
      target: step.toObject,
      categoryId: step.fromCategory,
      toCategoryId: step.toCategory,
    };
  }
  return {
    kind: "naturalTransformation",
    id: step.morphism.id,
    name: step.morphism.name,
    source: step.fromObject,
    target: step.toObject,
    categoryId: step.categoryId,
    naturalTransformationId: step.id,
    componentOf: step.componentOf,
  };
}

/**
 * A cross-category path's steps. When the functors land on the target object itself, the
 * domain's arrival is the target's identity; a path that is already there takes no further
 * step, so that identity is left out.
 */
function crossPathSteps(path: CrossCategoryPath): TraceStep[] {
  const arrival = path.arrival === null || path.arrival.objectIds.every((id) => id === path.resultObject) ? [] : pathSteps(path.arrival);
  return [...path.steps.map(crossStep), ...arrival];
}

function summarize(base: Omit<TraceView, "shortestPath" | "shortestPathLength">): TraceView {
  const shortest = base.paths[0] ?? null;
  return { ...base, shortestPath: shortest, shortestPathLength: shortest === null ? null : shortest.length };
}

export function traceView(index: ProjectIndex, request: TraceRequest): TraceView {
  const { source, target, categoryId, toCategory } = request;
  if (source === "") throw new CatDocInputError("Missing source");
  if (categoryId !== undefined && toCategory !== undefined) {
    throw new CatDocInputError("Give either a category to trace in or a category to trace into, not both");
  }
  const origin = requireObject(index, source, categoryId);
  const targetHome = target === undefined ? undefined : categoryOfObject(index, target)?.category.id;
  const across =
    toCategory ??
    (categoryId === undefined && targetHome !== undefined && targetHome !== origin.category.category.id ? targetHome : undefined);

  if (across !== undefined) {
    const result = traceAcross(index, source, across, {
      ...(target === undefined ? {} : { targetObjectId: target }),
      ...(request.maxDepth === undefined ? {} : { maxSteps: request.maxDepth }),
      ...(request.includeInvalid === true ? { includeInvalid: true } : {}),
    });
    // Shortest first by the steps actually taken (stable: the domain's order breaks ties).
    const all = result.paths.map(crossPathSteps).sort((a, b) => a.length - b.length);
    const paths = request.all === true ? all : all.slice(0, 1);
    return summarize({
      source,
      target: target ?? null,
      found: result.found,
      crossCategory: true,
      categoryId: null,
      sourceCategory: result.sourceCategory,
      targetCategory: result.targetCategory,
      paths,
      truncated: request.all === true && result.truncated,
      ...(result.skipped.length === 0 ? {} : { skipped: result.skipped }),
    });
  }

  if (target === undefined) throw new CatDocInputError("Missing target (give a target object, or a category to trace into)");
  const result = traceObjects(index, source, target, {
    ...(categoryId === undefined ? {} : { categoryId }),
    ...(request.all === true ? { all: true } : {}),
    ...(request.maxDepth === undefined ? {} : { maxDepth: request.maxDepth }),
  });
  return summarize({
    source,
    target,
    found: result.found,
    crossCategory: false,
    categoryId: result.categoryId,
    sourceCategory: result.categoryId,
    targetCategory: result.categoryId,
    paths: result.paths.map(pathSteps),
    truncated: result.truncated,
  });
}
