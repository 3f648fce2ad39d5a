/**
 * Coverage (issue 17): how much of a category a functor F: C → D carries over, object by object,
 * and which objects of a category stand alone.
 *
 * Every object A of C is
 * - `covered`: F maps A to an object of D, and some non-identity arrow out of A maps to a
 *   non-identity arrow of D (F keeps at least one of A's relations); an A with no non-identity
 *   arrow out of it is covered as soon as it is mapped, since there is nothing for F to collapse
 *   (a flat list of requirements, each mapped to its test, is fully covered);
 * - `trivially-covered`: F maps A, but none of the non-identity arrows out of A maps to a
 *   non-identity arrow: each lands on an identity (F collapses it) or is not mapped yet;
 * - `uncovered`: F does not map A, or maps it to an id that is no object of D.
 *
 * A functor need not validate: unmapped objects and arrows, images that do not exist and a
 * missing category are read as "not mapped" (a partial functor is what coverage measures). An
 * object of a category is an `orphan` when no arrow goes into or out of it besides its identity.
 * One pass over the arrows of each source category: linear in the size of the project.
 */
import type { Functor, Morphism } from "./model.js";
import { requireFunctor } from "./project-index.js";
import type { CategoryIndex, ProjectIndex } from "./project-index.js";

export type CoverageStatus = "covered" | "trivially-covered" | "uncovered";

export interface ObjectCoverage {
  id: string;
  status: CoverageStatus;
  /** F(A), when it is an object of the target category; else null. */
  image: string | null;
  /** Non-identity arrows out of A. */
  arrows: number;
  /** Of those, the ones F maps to a non-identity arrow of the target category. */
  preserved: number;
  /** The ones F maps to an identity (it collapses them). */
  collapsed: number;
  /** The ones F does not map, or maps to an id that is no arrow of the target category. */
  unmapped: number;
}

export interface CoveragePercent {
  covered: number;
  triviallyCovered: number;
  uncovered: number;
}

export interface FunctorCoverage {
  functorId: string;
  name: string;
  sourceCategory: string;
  targetCategory: string;
  /** Objects of the source category (none when it does not exist). */
  objects: number;
  covered: number;
  triviallyCovered: number;
  uncovered: number;
  /** Shares of `objects` in percent, to one decimal; a functor from an empty category is 100 % covered. */
  percent: CoveragePercent;
  uncoveredIds: string[];
  triviallyCoveredIds: string[];
  /** Every object of the source category, in file order. */
  detail: ObjectCoverage[];
}

export interface CategoryCoverage {
  categoryId: string;
  name: string;
  objects: number;
  /** Objects with no arrow in or out besides their identity, in file order. */
  orphans: string[];
}

export interface CoverageReport {
  functors: FunctorCoverage[];
  /** Every category (with a functor: its source and target categories that exist). */
  categories: CategoryCoverage[];
}

function own(mapping: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(mapping, key) ? mapping[key] : undefined;
}

function isIdentityIn(category: CategoryIndex, morphism: Morphism): boolean {
  return category.identities.get(morphism.source) === morphism;
}

function share(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 1000) / 10;
}

function objectCoverage(functor: Functor, source: CategoryIndex, target: CategoryIndex | undefined, objectId: string): ObjectCoverage {
  const mappedTo = own(functor.objectMapping, objectId);
  const image = mappedTo !== undefined && target?.objects.has(mappedTo) === true ? mappedTo : null;
  const identity = source.identities.get(objectId);
  let arrows = 0;
  let preserved = 0;
  let collapsed = 0;
  for (const morphism of source.outgoing.get(objectId) ?? []) {
    if (morphism === identity) continue;
    arrows += 1;
    const imageId = own(functor.morphismMapping, morphism.id);
    const imageArrow = imageId === undefined ? undefined : target?.morphisms.get(imageId);
    if (imageArrow === undefined) continue;
    if (target !== undefined && isIdentityIn(target, imageArrow)) collapsed += 1;
    else preserved += 1;
  }
  const status: CoverageStatus = image === null ? "uncovered" : arrows === 0 || preserved > 0 ? "covered" : "trivially-covered";
  return { id: objectId, status, image, arrows, preserved, collapsed, unmapped: arrows - preserved - collapsed };
}

/** The coverage of one functor (see the module comment); it need not validate. */
export function functorCoverage(index: ProjectIndex, functor: Functor): FunctorCoverage {
  const source = index.categories.get(functor.sourceCategory);
  const target = index.categories.get(functor.targetCategory);
  const detail = source === undefined ? [] : [...source.objects.keys()].map((id) => objectCoverage(functor, source, target, id));
  const idsOf = (status: CoverageStatus) => detail.filter((o) => o.status === status).map((o) => o.id);
  const uncoveredIds = idsOf("uncovered");
  const triviallyCoveredIds = idsOf("trivially-covered");
  const objects = detail.length;
  const covered = objects - uncoveredIds.length - triviallyCoveredIds.length;
  return {
    functorId: functor.id,
    name: functor.name,
    sourceCategory: functor.sourceCategory,
    targetCategory: functor.targetCategory,
    objects,
    covered,
    triviallyCovered: triviallyCoveredIds.length,
    uncovered: uncoveredIds.length,
    percent: {
      covered: objects === 0 ? 100 : share(covered, objects),
      triviallyCovered: share(triviallyCoveredIds.length, objects),
      uncovered: share(uncoveredIds.length, objects),
    },
    uncoveredIds,
    triviallyCoveredIds,
    detail,
  };
}

/** Objects of a category with no arrow in or out besides their identity. */
export function orphansOf(category: CategoryIndex): string[] {
  const orphans: string[] = [];
  for (const objectId of category.objects.keys()) {
    const identity = category.identities.get(objectId);
    const linked = (list: readonly Morphism[] | undefined) => (list ?? []).some((m) => m !== identity);
    if (!linked(category.outgoing.get(objectId)) && !linked(category.incoming.get(objectId))) orphans.push(objectId);
  }
  return orphans;
}

function categoryCoverage(category: CategoryIndex): CategoryCoverage {
  return {
    categoryId: category.category.id,
    name: category.category.name,
    objects: category.objects.size,
    orphans: orphansOf(category),
  };
}

/**
 * Coverage of every functor (each id once, first definition) and the orphans of every category;
 * with `functorId`, of that functor alone (NOT_FOUND when there is none) and its two categories.
 */
export function computeCoverage(index: ProjectIndex, options: { functorId?: string } = {}): CoverageReport {
  if (options.functorId !== undefined) {
    const functor = requireFunctor(index, options.functorId);
    const ids = [...new Set([functor.sourceCategory, functor.targetCategory])];
    const categories = ids.flatMap((id) => {
      const category = index.categories.get(id);
      return category === undefined ? [] : [categoryCoverage(category)];
    });
    return { functors: [functorCoverage(index, functor)], categories };
  }
  return {
    functors: [...index.functors.values()].map((functor) => functorCoverage(index, functor)),
    categories: [...index.categories.values()].map(categoryCoverage),
  };
}

/** True when less than `percent` % of the functor's objects are covered (exact, not the rounded share). */
export function coverageUnder(coverage: FunctorCoverage, percent: number): boolean {
  return coverage.covered * 100 < percent * coverage.objects;
}
