/**
 * Tracing an object into another category: through functors (A in C ↦ F(A) in D) and
 * natural-transformation components (inside D, η_A: F(A) → G(A) moves F(A) to G(A)).
 * Paths are found breadth-first over (category, object) states, fewest steps first; a path ends
 * when it enters the target category, where it may still take component steps. With a target
 * object, each path is completed by the shortest in-category path to it.
 */
import { CatDocInputError } from "../errors.js";
import { morphismRef } from "../model.js";
import type { Functor, MorphismRef, NaturalTransformation } from "../model.js";
import { requireCategory, requireObject } from "../project-index.js";
import type { ProjectIndex } from "../project-index.js";
import { shortestPathIn } from "./paths.js";
import type { TracePath } from "./paths.js";
import { runToEnd, type TraceSteps } from "./steps.js";
import { SkipLog, structuresToSkip } from "./valid-structures.js";
import type { InvalidStructures, SkippedStructure } from "./valid-structures.js";

export type CrossStep =
  | {
      kind: "functor";
      id: string;
      name: string;
      fromCategory: string;
      toCategory: string;
      fromObject: string;
      toObject: string;
    }
  | {
      kind: "naturalTransformation";
      id: string;
      name: string;
      categoryId: string;
      /** A, the object of the functors' source category whose component η_A this is. */
      componentOf: string;
      morphism: MorphismRef;
      fromObject: string;
      toObject: string;
    };

export interface CrossCategoryPath {
  steps: CrossStep[];
  resultObject: string;
  resultCategory: string;
  /** With a target object: the path inside the target category from `resultObject` to it. */
  arrival: TracePath | null;
  /** Steps plus the morphisms of `arrival`. */
  length: number;
}

export interface CrossTraceOptions {
  /** Also reach this object of the target category. */
  targetObjectId?: string;
  /** Most functor/component steps in one path (default 10). */
  maxSteps?: number;
  /** At most this many paths (default 20). */
  maxPaths?: number;
  /** Also follow functors and natural transformations that fail validation (default: skip them). */
  includeInvalid?: boolean;
}

export interface CrossTraceResult {
  source: string;
  sourceCategory: string;
  targetCategory: string;
  targetObject: string | null;
  found: boolean;
  /** Shortest first. */
  paths: CrossCategoryPath[];
  truncated: boolean;
  /** Functors and natural transformations the search met and did not follow: they fail validation. */
  skipped: SkippedStructure[];
}

const EXPANSION_BUDGET = 100_000;

interface State {
  categoryId: string;
  objectId: string;
  steps: CrossStep[];
  visited: Set<string>;
}

export function traceAcross(
  index: ProjectIndex,
  source: string,
  targetCategory: string,
  options: CrossTraceOptions = {},
): CrossTraceResult {
  return runToEnd(traceAcrossInSteps(index, source, targetCategory, options));
}

/**
 * `traceAcross` in steps (see steps.ts), one per state taken from the queue: what the MCP tool
 * runs, so a cancellation stops it. A state in the target category costs a search there.
 */
export function* traceAcrossInSteps(
  index: ProjectIndex,
  source: string,
  targetCategory: string,
  options: CrossTraceOptions = {},
): TraceSteps<CrossTraceResult> {
  const maxSteps = options.maxSteps ?? 10;
  const maxPaths = options.maxPaths ?? 20;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new CatDocInputError(`maxSteps must be a positive integer, got ${maxSteps}`);
  if (!Number.isInteger(maxPaths) || maxPaths < 1) throw new CatDocInputError(`maxPaths must be a positive integer, got ${maxPaths}`);
  const origin = requireObject(index, source);
  const target = requireCategory(index, targetCategory);
  const targetObject = options.targetObjectId ?? null;
  if (targetObject !== null) requireObject(index, targetObject, targetCategory);

  const finish = (state: State): CrossCategoryPath | null => {
    // Landing exactly on the target needs no arrival path (not even its identity).
    const arrived = targetObject !== null && state.objectId === targetObject;
    const arrival = targetObject === null || arrived ? null : shortestPathIn(target, state.objectId, targetObject);
    if (targetObject !== null && !arrived && arrival === null) return null;
    return {
      steps: state.steps,
      resultObject: state.objectId,
      resultCategory: targetCategory,
      arrival,
      length: state.steps.length + (arrival?.length ?? 0),
    };
  };

  const paths: CrossCategoryPath[] = [];
  const key = (categoryId: string, objectId: string) => `${categoryId}\u0000${objectId}`;
  const start: State = {
    categoryId: origin.category.category.id,
    objectId: source,
    steps: [],
    visited: new Set([key(origin.category.category.id, source)]),
  };
  const invalid = structuresToSkip(index, options.includeInvalid);
  const skipLog = new SkipLog();
  const components = componentMoves(index);
  let queue = [start];
  let budget = EXPANSION_BUDGET;
  let truncated = false;
  let taken = 0;
  while (queue.length > 0 && !truncated) {
    const next: State[] = [];
    for (const state of queue) {
      yield ++taken;
      const inTarget = state.categoryId === targetCategory;
      if (inTarget) {
        const path = finish(state);
        if (path !== null) paths.push(path);
        if (paths.length >= maxPaths) {
          truncated = true;
          break;
        }
      }
      if (state.steps.length >= maxSteps) continue;
      const moves = [
        ...(inTarget ? [] : functorMoves(index.functorsFrom.get(state.categoryId) ?? [], state, invalid, skipLog)),
        ...componentStepsFrom(components, state, invalid, skipLog),
      ];
      for (const move of moves) {
        const at = key(move.categoryId, move.objectId);
        if (state.visited.has(at)) continue;
        if (--budget < 0) {
          truncated = true;
          break;
        }
        next.push({
          categoryId: move.categoryId,
          objectId: move.objectId,
          steps: [...state.steps, move.step],
          visited: new Set([...state.visited, at]),
        });
      }
      if (truncated) break;
    }
    queue = next;
  }
  paths.sort((a, b) => a.length - b.length);
  return {
    source,
    sourceCategory: origin.category.category.id,
    targetCategory,
    targetObject,
    found: paths.length > 0,
    paths,
    truncated,
    skipped: skipLog.list(),
  };
}

interface Move {
  categoryId: string;
  objectId: string;
  step: CrossStep;
}

function functorMoves(functors: readonly Functor[], state: State, invalid: InvalidStructures, skipLog: SkipLog): Move[] {
  const moves: Move[] = [];
  for (const functor of functors) {
    const image = functor.objectMapping[state.objectId];
    if (image === undefined) continue;
    const failing = invalid.functors.get(functor.id);
    if (failing !== undefined) {
      skipLog.note(failing);
      continue;
    }
    moves.push({
      categoryId: functor.targetCategory,
      objectId: image,
      step: {
        kind: "functor",
        id: functor.id,
        name: functor.name,
        fromCategory: state.categoryId,
        toCategory: functor.targetCategory,
        fromObject: state.objectId,
        toObject: image,
      },
    });
  }
  return moves;
}

interface ComponentMove {
  nt: NaturalTransformation;
  componentOf: string;
  morphism: MorphismRef;
}

/** Component morphisms by (category, source object): every η_A that exists in its category. */
function componentMoves(index: ProjectIndex): Map<string, ComponentMove[]> {
  const moves = new Map<string, ComponentMove[]>();
  for (const nt of index.model.naturalTransformations) {
    const F = index.functors.get(nt.sourceFunctor);
    const D = F === undefined ? undefined : index.categories.get(F.targetCategory);
    if (D === undefined) continue;
    for (const [componentOf, morphismId] of Object.entries(nt.components)) {
      const morphism = D.morphisms.get(morphismId);
      if (morphism === undefined || morphism.source === morphism.target) continue;
      const at = `${D.category.id}\u0000${morphism.source}`;
      const list = moves.get(at) ?? [];
      list.push({ nt, componentOf, morphism: morphismRef(morphism) });
      moves.set(at, list);
    }
  }
  return moves;
}

function componentStepsFrom(components: Map<string, ComponentMove[]>, state: State, invalid: InvalidStructures, skipLog: SkipLog): Move[] {
  const available = (components.get(`${state.categoryId}\u0000${state.objectId}`) ?? []).filter(({ nt }) => {
    const failing = invalid.naturalTransformations.get(nt.id);
    if (failing !== undefined) skipLog.note(failing);
    return failing === undefined;
  });
  return available.map(({ nt, componentOf, morphism }) => ({
    categoryId: state.categoryId,
    objectId: morphism.target,
    step: {
      kind: "naturalTransformation",
      id: nt.id,
      name: nt.name,
      categoryId: state.categoryId,
      componentOf,
      morphism,
      fromObject: state.objectId,
      toObject: morphism.target,
    },
  }));
}
