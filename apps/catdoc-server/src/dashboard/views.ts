/**
 * The JSON views of a project that the dashboard's REST API serves and `catdoc … --format json`
 * prints, so both say the same thing in the same shape. Shapes follow the original CatDoc
 * dashboard (`{objects}`, `{morphisms}`, `{categories}` with counts, …) with a few additions:
 * the category of each object and morphism, `total`, and identity flags.
 */
import { CatDocInputError, requireCategory } from "../domain/index.js";
import type { CatDocObject, CategoryIndex, Functor, Morphism, NaturalTransformation, ProjectIndex } from "../domain/index.js";

export interface ObjectView extends CatDocObject {
  categoryId: string;
}

export interface MorphismView extends Morphism {
  categoryId: string;
  /** True when this morphism is the identity of its object (see the identity rule). */
  isIdentity: boolean;
}

export interface CategorySummary {
  id: string;
  name: string;
  objectCount: number;
  morphismCount: number;
}

export interface FunctorSummary {
  id: string;
  name: string;
  sourceCategory: string;
  targetCategory: string;
  mappedObjects: number;
  mappedMorphisms: number;
}

export interface NaturalTransformationSummary {
  id: string;
  name: string;
  sourceFunctor: string;
  targetFunctor: string;
  componentCount: number;
}

export interface ObjectFilter {
  domain?: string;
  categoryId?: string;
}

export interface MorphismFilter {
  categoryId?: string;
  source?: string;
  target?: string;
  /** Leave out identities (default: keep them, as the original did). */
  withoutIdentities?: boolean;
}

/** The categories a filter names (every one when it names none); NOT_FOUND for an unknown id. */
export function categoriesOf(index: ProjectIndex, categoryId: string | undefined): CategoryIndex[] {
  return categoryId === undefined ? index.categoryList : [requireCategory(index, categoryId)];
}

export function isIdentityIn(category: CategoryIndex, morphism: Morphism): boolean {
  return category.identities.get(morphism.source) === morphism;
}

export function objectViews(index: ProjectIndex, filter: ObjectFilter = {}): ObjectView[] {
  const out: ObjectView[] = [];
  for (const entry of categoriesOf(index, filter.categoryId)) {
    for (const object of entry.category.objects) {
      if (filter.domain !== undefined && object.domain !== filter.domain) continue;
      out.push({ ...object, categoryId: entry.category.id });
    }
  }
  return out;
}

export function morphismView(category: CategoryIndex, morphism: Morphism): MorphismView {
  return { ...morphism, categoryId: category.category.id, isIdentity: isIdentityIn(category, morphism) };
}

export function morphismViews(index: ProjectIndex, filter: MorphismFilter = {}): MorphismView[] {
  const out: MorphismView[] = [];
  for (const entry of categoriesOf(index, filter.categoryId)) {
    for (const morphism of entry.category.morphisms) {
      if (filter.source !== undefined && morphism.source !== filter.source) continue;
      if (filter.target !== undefined && morphism.target !== filter.target) continue;
      const view = morphismView(entry, morphism);
      if (filter.withoutIdentities === true && view.isIdentity) continue;
      out.push(view);
    }
  }
  return out;
}

export function categorySummaries(index: ProjectIndex): CategorySummary[] {
  return index.categoryList.map(({ category }) => ({
    id: category.id,
    name: category.name,
    objectCount: category.objects.length,
    morphismCount: category.morphisms.length,
  }));
}

export function functorSummary(functor: Functor): FunctorSummary {
  return {
    id: functor.id,
    name: functor.name,
    sourceCategory: functor.sourceCategory,
    targetCategory: functor.targetCategory,
    mappedObjects: Object.keys(functor.objectMapping).length,
    mappedMorphisms: Object.keys(functor.morphismMapping).length,
  };
}

/** Functors, optionally only those from or to one category. */
export function functorSummaries(index: ProjectIndex, categoryId?: string): FunctorSummary[] {
  if (categoryId !== undefined) requireCategory(index, categoryId);
  return index.model.functors
    .filter((f) => categoryId === undefined || f.sourceCategory === categoryId || f.targetCategory === categoryId)
    .map(functorSummary);
}

export function naturalTransformationSummary(nt: NaturalTransformation): NaturalTransformationSummary {
  return {
    id: nt.id,
    name: nt.name,
    sourceFunctor: nt.sourceFunctor,
    targetFunctor: nt.targetFunctor,
    componentCount: Object.keys(nt.components).length,
  };
}

/** Natural transformations, optionally only those between functors from or to one category. */
export function naturalTransformationSummaries(index: ProjectIndex, categoryId?: string): NaturalTransformationSummary[] {
  if (categoryId !== undefined) requireCategory(index, categoryId);
  const touches = (functorId: string) => {
    const functor = index.functors.get(functorId);
    return functor !== undefined && (functor.sourceCategory === categoryId || functor.targetCategory === categoryId);
  };
  return index.model.naturalTransformations
    .filter((nt) => categoryId === undefined || touches(nt.sourceFunctor) || touches(nt.targetFunctor))
    .map(naturalTransformationSummary);
}

/** A positive integer limit from a query string or option; INVALID_INPUT otherwise. */
export function parseLimit(raw: string | undefined, name = "limit"): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new CatDocInputError(`${name} must be a positive integer, got '${raw}'`, { [name]: raw });
  return value;
}
