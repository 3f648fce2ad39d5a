/**
 * Paths inside one category: the shortest (breadth-first) and all simple paths up to a depth,
 * shortest first. Endomorphisms are never steps of a path between two objects; a path from an
 * object to itself is its identity.
 */
import { CatDocInputError } from "../errors.js";
import { morphismRef } from "../model.js";
import type { Morphism, MorphismRef } from "../model.js";
import { categoryOfObject, requireObject, sameCategoryOrThrow } from "../project-index.js";
import type { CategoryIndex, ProjectIndex } from "../project-index.js";
import { runToEnd, type TraceSteps } from "./steps.js";

export interface TracePath {
  categoryId: string;
  /** The objects visited, source first, target last. */
  objectIds: string[];
  /** The morphisms followed, in order (ids and names). */
  morphisms: MorphismRef[];
  /** Number of morphisms. */
  length: number;
}

export interface TraceOptions {
  /** The category to look in; default: the category the source object is defined in. */
  categoryId?: string;
  /** Also list every simple path (not only the shortest). */
  all?: boolean;
  /** Longest path listed by `all`, in morphisms (default 10). */
  maxDepth?: number;
  /** At most this many paths listed by `all` (default 100). */
  maxPaths?: number;
}

export interface TraceResult {
  source: string;
  target: string;
  categoryId: string;
  found: boolean;
  shortestPath: TracePath | null;
  /** With `all`: simple paths sorted by length; otherwise the shortest path alone (or none). */
  paths: TracePath[];
  /** True when `maxPaths` or the search budget cut the list short. */
  truncated: boolean;
}

export const DEFAULT_MAX_DEPTH = 10;
export const DEFAULT_MAX_PATHS = 100;
/** Bound on DFS expansions when listing all paths, so a dense graph cannot stall a call. */
const EXPANSION_BUDGET = 500_000;

/** Shortest path and, with `all`, every simple path between two objects of one category. */
export function traceObjects(index: ProjectIndex, source: string, target: string, options: TraceOptions = {}): TraceResult {
  return runToEnd(traceObjectsInSteps(index, source, target, options));
}

/** `traceObjects` in steps (see steps.ts): what the MCP tool runs, so a cancellation stops it. */
export function* traceObjectsInSteps(
  index: ProjectIndex,
  source: string,
  target: string,
  options: TraceOptions = {},
): TraceSteps<TraceResult> {
  // Without a category, the source's category is searched; a target defined in another
  // category is an input error that says so.
  const from = requireObject(index, source, options.categoryId);
  const home = categoryOfObject(index, target);
  const categoryId = options.categoryId ?? (home === undefined ? from.category.category.id : undefined);
  const to = requireObject(index, target, categoryId);
  sameCategoryOrThrow(from.category, to.category, source, target);
  const category = from.category;
  const shortest = shortestPathIn(category, source, target);
  let paths = shortest === null ? [] : [shortest];
  let truncated = false;
  if (options.all === true && source !== target) {
    const listed = yield* allSimplePathsInSteps(
      category,
      source,
      target,
      options.maxDepth ?? DEFAULT_MAX_DEPTH,
      options.maxPaths ?? DEFAULT_MAX_PATHS,
    );
    paths = listed.paths;
    truncated = listed.truncated;
  }
  return { source, target, categoryId: category.category.id, found: shortest !== null, shortestPath: shortest, paths, truncated };
}

function toPath(category: CategoryIndex, start: string, steps: readonly Morphism[]): TracePath {
  return {
    categoryId: category.category.id,
    objectIds: [start, ...steps.map((m) => m.target)],
    morphisms: steps.map(morphismRef),
    length: steps.length,
  };
}

/** Breadth-first search; `null` when the target cannot be reached. */
export function shortestPathIn(category: CategoryIndex, source: string, target: string): TracePath | null {
  if (source === target) {
    const identity = category.identities.get(source);
    return toPath(category, source, identity === undefined ? [] : [identity]);
  }
  const via = new Map<string, Morphism>();
  const seen = new Set<string>([source]);
  let frontier = [source];
  while (frontier.length > 0 && !seen.has(target)) {
    const next: string[] = [];
    for (const objectId of frontier) {
      for (const morphism of category.outgoing.get(objectId) ?? []) {
        if (seen.has(morphism.target)) continue;
        seen.add(morphism.target);
        via.set(morphism.target, morphism);
        next.push(morphism.target);
      }
    }
    frontier = next;
  }
  if (!seen.has(target)) return null;
  const steps: Morphism[] = [];
  for (let at = target; at !== source;) {
    const morphism = via.get(at);
    if (morphism === undefined) return null;
    steps.push(morphism);
    at = morphism.source;
  }
  return toPath(category, source, steps.reverse());
}

/** Distance of every object to `target`, following morphisms backwards. */
function distancesTo(category: CategoryIndex, target: string): Map<string, number> {
  const distance = new Map<string, number>([[target, 0]]);
  let frontier = [target];
  for (let d = 1; frontier.length > 0; d += 1) {
    const next: string[] = [];
    for (const objectId of frontier) {
      for (const morphism of category.incoming.get(objectId) ?? []) {
        if (distance.has(morphism.source)) continue;
        distance.set(morphism.source, d);
        next.push(morphism.source);
      }
    }
    frontier = next;
  }
  return distance;
}

/**
 * Simple paths (no object twice) from source to target of at most `maxDepth` morphisms,
 * shortest first, at most `maxPaths` of them. Paths are enumerated length by length with
 * pruning by the distance to the target, so the first `maxPaths` found are the shortest.
 */
export function allSimplePathsIn(
  category: CategoryIndex,
  source: string,
  target: string,
  maxDepth: number,
  maxPaths: number,
): { paths: TracePath[]; truncated: boolean } {
  return runToEnd(allSimplePathsInSteps(category, source, target, maxDepth, maxPaths));
}

/** Expansions between two yields of the depth-first search. */
const EXPANSIONS_PER_STEP = 256;

interface Frame {
  objectId: string;
  outgoing: readonly Morphism[];
  next: number;
}

function* allSimplePathsInSteps(
  category: CategoryIndex,
  source: string,
  target: string,
  maxDepth: number,
  maxPaths: number,
): TraceSteps<{ paths: TracePath[]; truncated: boolean }> {
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new CatDocInputError(`maxDepth must be a positive integer, got ${maxDepth}`);
  if (!Number.isInteger(maxPaths) || maxPaths < 1) throw new CatDocInputError(`maxPaths must be a positive integer, got ${maxPaths}`);
  const distance = distancesTo(category, target);
  const start = distance.get(source);
  const paths: TracePath[] = [];
  if (start === undefined) return { paths, truncated: false };
  let expansions = 0;
  const onPath = new Set<string>([source]);
  const steps: Morphism[] = [];
  const frame = (objectId: string): Frame => ({ objectId, outgoing: category.outgoing.get(objectId) ?? [], next: 0 });

  // Depth-first with an explicit stack (the search yields between steps): every simple path of
  // exactly `length` morphisms, in the order of the outgoing lists. False when it must stop:
  // `maxPaths` reached or the expansion budget spent.
  function* walk(length: number): Generator<number, boolean, void> {
    const stack: Frame[] = [frame(source)];
    for (let top = stack[0]; top !== undefined; top = stack[stack.length - 1]) {
      const morphism = top.outgoing[top.next];
      if (morphism === undefined) {
        stack.pop();
        if (stack.length > 0) {
          onPath.delete(top.objectId);
          steps.pop();
        }
        continue;
      }
      top.next += 1;
      const next = morphism.target;
      const rest = distance.get(next);
      if (next === top.objectId || onPath.has(next) || rest === undefined || steps.length + 1 + rest > length) continue;
      if (++expansions > EXPANSION_BUDGET) return false;
      if (expansions % EXPANSIONS_PER_STEP === 0) yield expansions;
      if (next === target) {
        if (steps.length + 1 === length) paths.push(toPath(category, source, [...steps, morphism]));
        if (paths.length >= maxPaths) return false;
        continue;
      }
      onPath.add(next);
      steps.push(morphism);
      stack.push(frame(next));
    }
    return true;
  }

  for (let length = start; length <= maxDepth; length += 1) {
    if (!(yield* walk(length))) return { paths, truncated: true };
  }
  return { paths, truncated: false };
}
