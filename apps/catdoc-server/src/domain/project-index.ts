/**
 * Lookups over a model, built once per model object: categories, objects and morphisms by id,
 * morphisms by source and by target, the set of (source, target) arrows, and identities. Every
 * check, trace and list works through these, so nothing scans all morphisms per object.
 */
import { CatDocInputError, CatDocNotFoundError } from "./errors.js";
import { findIdentities } from "./identity.js";
import type { CatDocModel, CatDocObject, Category, Functor, Morphism, NaturalTransformation } from "./model.js";

export interface CategoryIndex {
  category: Category;
  /** Position of the category in `categories[]`. */
  position: number;
  objects: Map<string, CatDocObject>;
  morphisms: Map<string, Morphism>;
  /** Morphisms by source object id (endomorphisms included), in file order. */
  outgoing: Map<string, Morphism[]>;
  /** Morphisms by target object id, in file order. */
  incoming: Map<string, Morphism[]>;
  /** `arrowKey(source, target)` of every morphism. */
  arrows: Set<string>;
  /** Object id → its identity morphism (see identity.ts). */
  identities: Map<string, Morphism>;
}

/** Where one definition of an object or morphism id sits. */
export interface Occurrence {
  categoryId: string;
  categoryPosition: number;
  itemIndex: number;
}

export interface ProjectIndex {
  model: CatDocModel;
  /** Categories by id (first definition wins). */
  categories: Map<string, CategoryIndex>;
  /** Every category, in file order, duplicates included. */
  categoryList: CategoryIndex[];
  functors: Map<string, Functor>;
  naturalTransformations: Map<string, NaturalTransformation>;
  /** Every definition of each object id across the project. */
  objectOccurrences: Map<string, Occurrence[]>;
  morphismOccurrences: Map<string, Occurrence[]>;
  /** Functors by source category id. */
  functorsFrom: Map<string, Functor[]>;
}

export function arrowKey(source: string, target: string): string {
  return `${source}\u0000${target}`;
}

export function hasArrow(category: CategoryIndex, source: string, target: string): boolean {
  return category.arrows.has(arrowKey(source, target));
}

const cache = new WeakMap<CatDocModel, ProjectIndex>();

/** The index of a model; built on first use and kept as long as the model object lives. */
export function indexProject(model: CatDocModel): ProjectIndex {
  const cached = cache.get(model);
  if (cached !== undefined) return cached;
  const built = buildIndex(model);
  cache.set(model, built);
  return built;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function firstById<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

function indexCategory(category: Category, position: number): CategoryIndex {
  const objects = firstById(category.objects);
  const morphisms = firstById(category.morphisms);
  const outgoing = new Map<string, Morphism[]>();
  const incoming = new Map<string, Morphism[]>();
  const arrows = new Set<string>();
  for (const morphism of category.morphisms) {
    push(outgoing, morphism.source, morphism);
    push(incoming, morphism.target, morphism);
    arrows.add(arrowKey(morphism.source, morphism.target));
  }
  const identities = findIdentities(objects.keys(), category.morphisms, morphisms);
  return { category, position, objects, morphisms, outgoing, incoming, arrows, identities };
}

function buildIndex(model: CatDocModel): ProjectIndex {
  const categoryList = model.categories.map((category, position) => indexCategory(category, position));
  const categories = new Map<string, CategoryIndex>();
  const objectOccurrences = new Map<string, Occurrence[]>();
  const morphismOccurrences = new Map<string, Occurrence[]>();
  for (const entry of categoryList) {
    const { category, position } = entry;
    if (!categories.has(category.id)) categories.set(category.id, entry);
    category.objects.forEach((object, itemIndex) =>
      push(objectOccurrences, object.id, { categoryId: category.id, categoryPosition: position, itemIndex }),
    );
    category.morphisms.forEach((morphism, itemIndex) =>
      push(morphismOccurrences, morphism.id, { categoryId: category.id, categoryPosition: position, itemIndex }),
    );
  }
  const functorsFrom = new Map<string, Functor[]>();
  for (const functor of model.functors) push(functorsFrom, functor.sourceCategory, functor);
  return {
    model,
    categories,
    categoryList,
    functors: firstById(model.functors),
    naturalTransformations: firstById(model.naturalTransformations),
    objectOccurrences,
    morphismOccurrences,
    functorsFrom,
  };
}

// ---- lookups that raise NOT_FOUND -------------------------------------------------------------

export function requireCategory(index: ProjectIndex, categoryId: string): CategoryIndex {
  const category = index.categories.get(categoryId);
  if (category === undefined) throw new CatDocNotFoundError("category", categoryId);
  return category;
}

export function requireFunctor(index: ProjectIndex, functorId: string): Functor {
  const functor = index.functors.get(functorId);
  if (functor === undefined) throw new CatDocNotFoundError("functor", functorId);
  return functor;
}

export function requireNaturalTransformation(index: ProjectIndex, id: string): NaturalTransformation {
  const nt = index.naturalTransformations.get(id);
  if (nt === undefined) throw new CatDocNotFoundError("naturalTransformation", id);
  return nt;
}

/** The category an object id is defined in (its first definition). */
export function categoryOfObject(index: ProjectIndex, objectId: string): CategoryIndex | undefined {
  const first = index.objectOccurrences.get(objectId)?.[0];
  return first === undefined ? undefined : index.categoryList[first.categoryPosition];
}

export function categoryOfMorphism(index: ProjectIndex, morphismId: string): CategoryIndex | undefined {
  const first = index.morphismOccurrences.get(morphismId)?.[0];
  return first === undefined ? undefined : index.categoryList[first.categoryPosition];
}

/**
 * An object and its category. With `categoryId`, the object must be in that category
 * (`Object 'x' not found in category 'c'`); without, its home category is used.
 */
export function requireObject(
  index: ProjectIndex,
  objectId: string,
  categoryId?: string,
): { object: CatDocObject; category: CategoryIndex } {
  if (categoryId !== undefined) {
    const category = requireCategory(index, categoryId);
    const object = category.objects.get(objectId);
    if (object === undefined) throw new CatDocNotFoundError("object", objectId, { categoryId });
    return { object, category };
  }
  const category = categoryOfObject(index, objectId);
  const object = category?.objects.get(objectId);
  if (category === undefined || object === undefined) throw new CatDocNotFoundError("object", objectId);
  return { object, category };
}

export function requireMorphism(
  index: ProjectIndex,
  morphismId: string,
  categoryId?: string,
): { morphism: Morphism; category: CategoryIndex } {
  const category = categoryId === undefined ? categoryOfMorphism(index, morphismId) : requireCategory(index, categoryId);
  const morphism = category?.morphisms.get(morphismId);
  if (category === undefined || morphism === undefined) {
    throw new CatDocNotFoundError("morphism", morphismId, categoryId === undefined ? {} : { categoryId });
  }
  return { morphism, category };
}

/** Objects of one category must be addressed together; says which categories they are in. */
export function sameCategoryOrThrow(source: CategoryIndex, target: CategoryIndex, sourceId: string, targetId: string): void {
  if (source.category.id !== target.category.id) {
    throw new CatDocInputError(
      `Objects '${sourceId}' (category '${source.category.id}') and '${targetId}' (category '${target.category.id}') are in different categories; trace across categories through functors instead`,
      { sourceId, targetId, sourceCategory: source.category.id, targetCategory: target.category.id },
    );
  }
}
