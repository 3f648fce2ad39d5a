/**
 * The working state of one edit: the YAML document being changed, a private copy of the model
 * kept in step with it, and lookups by id. Every operation checks ids here before it touches
 * the document, so a failed operation leaves both unchanged.
 */
import type { Document, YAMLMap, YAMLSeq } from "yaml";
import { CatDocConflictError, CatDocInputError, CatDocNotFoundError } from "../errors.js";
import type { EntityKind } from "../errors.js";
import type { CatDocModel, Category, Functor, Morphism, NaturalTransformation } from "../model.js";
import { blockSeqAt, findById, rootMap } from "./yaml-edit.js";

/** Ids the store writes: 1–200 characters, no whitespace or control characters, none of / \ # ?. */
const ID_PATTERN = /^[^\s\p{Cc}/\\#?]{1,200}$/u;

export class EditState {
  readonly doc: Document;
  readonly model: CatDocModel;
  readonly categories = new Map<string, Category>();
  readonly objectHome = new Map<string, string>();
  readonly morphisms = new Map<string, { morphism: Morphism; categoryId: string }>();
  readonly functors = new Map<string, Functor>();
  readonly naturalTransformations = new Map<string, NaturalTransformation>();
  /** One line per change made, in order (`add object 'x' to category 'c'`). */
  readonly changes: string[] = [];

  constructor(doc: Document, model: CatDocModel) {
    this.doc = doc;
    this.model = structuredClone(model);
    for (const category of this.model.categories) {
      if (!this.categories.has(category.id)) this.categories.set(category.id, category);
      for (const object of category.objects) if (!this.objectHome.has(object.id)) this.objectHome.set(object.id, category.id);
      for (const morphism of category.morphisms) {
        if (!this.morphisms.has(morphism.id)) this.morphisms.set(morphism.id, { morphism, categoryId: category.id });
      }
    }
    for (const functor of this.model.functors) if (!this.functors.has(functor.id)) this.functors.set(functor.id, functor);
    for (const nt of this.model.naturalTransformations) {
      if (!this.naturalTransformations.has(nt.id)) this.naturalTransformations.set(nt.id, nt);
    }
  }

  record(change: string): void {
    this.changes.push(change);
  }

  /** A top-level list (`categories`, `functors`, `naturalTransformations`). */
  section(key: "categories" | "functors" | "naturalTransformations"): YAMLSeq {
    return blockSeqAt(this.doc, rootMap(this.doc), key);
  }

  requireCategory(categoryId: string): { category: Category; node: YAMLMap } {
    const category = this.categories.get(categoryId);
    const found = findById(this.section("categories"), categoryId);
    if (category === undefined || found === undefined) throw new CatDocNotFoundError("category", categoryId);
    return { category, node: found.node };
  }

  requireObjectIn(categoryId: string, objectId: string): void {
    if (this.objectHome.get(objectId) !== categoryId) throw new CatDocNotFoundError("object", objectId, { categoryId });
  }

  requireMorphismIn(categoryId: string, morphismId: string): Morphism {
    const entry = this.morphisms.get(morphismId);
    if (entry === undefined || entry.categoryId !== categoryId) throw new CatDocNotFoundError("morphism", morphismId, { categoryId });
    return entry.morphism;
  }

  requireFunctor(functorId: string): Functor {
    const functor = this.functors.get(functorId);
    if (functor === undefined) throw new CatDocNotFoundError("functor", functorId);
    return functor;
  }
}

const LABEL: Record<EntityKind, string> = {
  category: "Category",
  object: "Object",
  morphism: "Morphism",
  functor: "Functor",
  naturalTransformation: "Natural transformation",
  project: "Project",
  file: "File",
};

/** A new id must be well-formed and unused among its kind. */
export function checkNewId(kind: EntityKind, id: string, taken: boolean, where?: string): void {
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw new CatDocInputError(
      `${LABEL[kind]} id '${String(id)}' is not valid: use 1-200 characters without spaces, control characters, '/', '\\', '#' or '?'`,
      { kind, id },
    );
  }
  if (taken) {
    throw new CatDocConflictError(`${LABEL[kind]} '${id}' already exists${where === undefined ? "" : ` in ${where}`}`, { kind, id });
  }
}

/** Required text fields must be non-empty strings. */
export function checkText(field: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new CatDocInputError(`${field} must be a non-empty string`, { field });
  }
  return value;
}
