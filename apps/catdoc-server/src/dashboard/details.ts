/**
 * One item in full: what `/api/<kind>/<id>` serves and `catdoc show <kind> <id> --format json`
 * prints. Unknown ids raise NOT_FOUND (`Object 'x' not found`).
 */
import { requireCategory, requireFunctor, requireMorphism, requireNaturalTransformation, requireObject } from "../domain/index.js";
import type { CatDocProject, Category, Functor, Morphism, NaturalTransformation, ProjectIndex } from "../domain/index.js";
import { functorSummaries, morphismView, naturalTransformationSummaries } from "./views.js";
import type { FunctorSummary, MorphismView, NaturalTransformationSummary, ObjectView } from "./views.js";

export interface ObjectDetail {
  object: ObjectView;
  outgoingMorphisms: MorphismView[];
  incomingMorphisms: MorphismView[];
  /** Id of the object's identity morphism, or null when it has none. */
  identity: string | null;
  /** Where its document was found, or null. */
  document: { path: string | null; origin: string } | null;
}

export interface CategoryDetail {
  category: Pick<Category, "id" | "name" | "objects"> & { morphisms: MorphismView[] };
  /** Functors from or to this category. */
  functors: FunctorSummary[];
  naturalTransformations: NaturalTransformationSummary[];
}

export async function objectDetail(project: CatDocProject, id: string): Promise<ObjectDetail> {
  const { object, category } = requireObject(project.index, id);
  const document = (await project.documents()).byObject.get(id);
  const views = (list: readonly Morphism[]) => list.map((m) => morphismView(category, m));
  return {
    object: { ...object, categoryId: category.category.id },
    outgoingMorphisms: views(category.outgoing.get(id) ?? []),
    incomingMorphisms: views(category.incoming.get(id) ?? []),
    identity: category.identities.get(id)?.id ?? null,
    document: document === undefined ? null : { path: document.path, origin: document.origin },
  };
}

export function morphismDetail(index: ProjectIndex, id: string): { morphism: MorphismView } {
  const { morphism, category } = requireMorphism(index, id);
  return { morphism: morphismView(category, morphism) };
}

export function categoryDetail(index: ProjectIndex, id: string): CategoryDetail {
  const entry = requireCategory(index, id);
  const { category } = entry;
  return {
    category: {
      id: category.id,
      name: category.name,
      objects: category.objects,
      morphisms: category.morphisms.map((m) => morphismView(entry, m)),
    },
    functors: functorSummaries(index, id),
    naturalTransformations: naturalTransformationSummaries(index, id),
  };
}

export function functorDetail(index: ProjectIndex, id: string): { functor: Functor } {
  return { functor: requireFunctor(index, id) };
}

export function naturalTransformationDetail(index: ProjectIndex, id: string): { naturalTransformation: NaturalTransformation } {
  return { naturalTransformation: requireNaturalTransformation(index, id) };
}
