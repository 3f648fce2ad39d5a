/**
 * Tracing backwards from an object X (issue 17): what leads to X inside its category (every
 * object with a path of morphisms to X, nearest first, each with its shortest path) and what
 * covers X across categories (the objects a functor maps onto X, then the objects mapped onto
 * those: chains of preimages, fewest functors first, each object once). Paths are given along
 * the arrows, ending at X. A backward trace from X to one object Y is the forward trace from Y to
 * X (paths.ts, across.ts); only these listings live here.
 */
import { CatDocInputError } from "../errors.js";
import { morphismRef } from "../model.js";
import type { Functor, Morphism } from "../model.js";
import { requireCategory, requireObject } from "../project-index.js";
import type { ProjectIndex } from "../project-index.js";
import type { CrossCategoryPath, CrossStep } from "./across.js";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_PATHS } from "./paths.js";
import type { TracePath } from "./paths.js";
import { runToEnd, type TraceSteps } from "./steps.js";
import { SkipLog, structuresToSkip } from "./valid-structures.js";
import type { SkippedStructure } from "./valid-structures.js";

export interface BackwardTraceOptions {
  /** The category X is looked up in; default: the one it is defined in. */
  categoryId?: string;
  /** Only list covering objects of this category. */
  coveringCategoryId?: string;
  /** Longest path inside the category, and most functors in a chain (default 10). */
  maxDepth?: number;
  /** At most this many objects in each list (default 100). */
  maxPaths?: number;
  /** Also follow functors that fail validation (default: skip them; valid-structures.ts). */
  includeInvalid?: boolean;
}

export interface BackwardTraceResult {
  target: string;
  categoryId: string;
  /** Objects with a path to X in its category, nearest first: their shortest paths, ending at X. */
  leadsTo: TracePath[];
  /** Objects that functors carry onto X, fewest functors first: their functor steps, ending at X. */
  coveredBy: CrossCategoryPath[];
  /** True when `maxPaths` cut a list short. */
  truncated: boolean;
  /** Functors the search met and did not follow: they fail validation. */
  skipped: SkippedStructure[];
}

/** Object id → the source objects a functor maps onto it, per functor (a model's functors never change). */
const preimageCache = new WeakMap<Functor, Map<string, string[]>>();

function preimagesOf(functor: Functor): Map<string, string[]> {
  const cached = preimageCache.get(functor);
  if (cached !== undefined) return cached;
  const inverse = new Map<string, string[]>();
  for (const [source, image] of Object.entries(functor.objectMapping)) {
    const list = inverse.get(image);
    if (list === undefined) inverse.set(image, [source]);
    else list.push(source);
  }
  preimageCache.set(functor, inverse);
  return inverse;
}

export function traceBackward(index: ProjectIndex, objectId: string, options: BackwardTraceOptions = {}): BackwardTraceResult {
  return runToEnd(traceBackwardInSteps(index, objectId, options));
}

/** `traceBackward` in steps (see steps.ts), one per object reached: what the MCP tool runs. */
export function* traceBackwardInSteps(
  index: ProjectIndex,
  objectId: string,
  options: BackwardTraceOptions = {},
): TraceSteps<BackwardTraceResult> {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxPaths = options.maxPaths ?? DEFAULT_MAX_PATHS;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new CatDocInputError(`maxDepth must be a positive integer, got ${maxDepth}`);
  if (!Number.isInteger(maxPaths) || maxPaths < 1) throw new CatDocInputError(`maxPaths must be a positive integer, got ${maxPaths}`);
  const { category } = requireObject(index, objectId, options.categoryId);
  if (options.coveringCategoryId !== undefined) requireCategory(index, options.coveringCategoryId);
  const categoryId = category.category.id;
  let work = 0;
  let truncated = false;

  // What leads to X: breadth-first over incoming morphisms (endomorphisms are never steps).
  const leadsTo: TracePath[] = [];
  const toward = new Map<string, Morphism>(); // object → the first morphism of its shortest path to X
  let frontier = [objectId];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0 && !truncated; depth += 1) {
    const next: string[] = [];
    for (const at of frontier) {
      yield ++work;
      for (const morphism of category.incoming.get(at) ?? []) {
        const from = morphism.source;
        if (from === morphism.target || from === objectId || toward.has(from)) continue;
        if (leadsTo.length >= maxPaths) {
          truncated = true;
          break;
        }
        toward.set(from, morphism);
        next.push(from);
        const steps: Morphism[] = [];
        for (let step = toward.get(from); step !== undefined; step = toward.get(step.target)) steps.push(step);
        leadsTo.push({
          categoryId,
          objectIds: [from, ...steps.map((m) => m.target)],
          morphisms: steps.map(morphismRef),
          length: steps.length,
        });
      }
      if (truncated) break;
    }
    frontier = next;
  }

  // What covers X: breadth-first over preimages under the functors into the category reached.
  const coveredBy: CrossCategoryPath[] = [];
  let coveringCut = false;
  const key = (inCategory: string, object: string) => `${inCategory}\u0000${object}`;
  const seen = new Set([key(categoryId, objectId)]);
  const invalid = structuresToSkip(index, options.includeInvalid);
  const skipLog = new SkipLog();
  let states = [{ categoryId, objectId, steps: [] as CrossStep[] }];
  for (let depth = 1; depth <= maxDepth && states.length > 0 && !coveringCut; depth += 1) {
    const next: typeof states = [];
    for (const state of states) {
      yield ++work;
      for (const functor of index.model.functors) {
        if (functor.targetCategory !== state.categoryId || index.functors.get(functor.id) !== functor) continue;
        const source = index.categories.get(functor.sourceCategory);
        const preimages = preimagesOf(functor).get(state.objectId) ?? [];
        const failing = invalid.functors.get(functor.id);
        if (failing !== undefined && preimages.length > 0) {
          skipLog.note(failing);
          continue;
        }
        for (const preimage of preimages) {
          const at = key(functor.sourceCategory, preimage);
          if (source?.objects.has(preimage) !== true || seen.has(at)) continue;
          seen.add(at);
          const step: CrossStep = {
            kind: "functor",
            id: functor.id,
            name: functor.name,
            fromCategory: functor.sourceCategory,
            toCategory: functor.targetCategory,
            fromObject: preimage,
            toObject: state.objectId,
          };
          const reached = { categoryId: functor.sourceCategory, objectId: preimage, steps: [step, ...state.steps] };
          next.push(reached);
          if (options.coveringCategoryId !== undefined && reached.categoryId !== options.coveringCategoryId) continue;
          if (coveredBy.length >= maxPaths) {
            coveringCut = true;
            continue;
          }
          coveredBy.push({
            steps: reached.steps,
            resultObject: objectId,
            resultCategory: categoryId,
            arrival: null,
            length: reached.steps.length,
          });
        }
      }
    }
    states = next;
  }
  return { target: objectId, categoryId, leadsTo, coveredBy, truncated: truncated || coveringCut, skipped: skipLog.list() };
}
