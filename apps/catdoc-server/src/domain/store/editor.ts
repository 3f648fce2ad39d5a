/**
 * CategoryEditor: the operations one edit of category.yaml may apply, on the YAML document
 * itself (comments, key order and unknown keys survive) and on a private copy of the model.
 * Each operation checks its ids first (duplicates → CONFLICT, unknown references →
 * NOT_FOUND, malformed input → INVALID_INPUT) and changes nothing when it fails; the store
 * writes nothing unless the whole edit succeeds. Batch callers (Markdown import) apply many
 * operations in one edit and read `changes` for a dry run.
 */
import type { Document } from "yaml";
import type { CatDocModel, ReviewStamp } from "../model.js";
import type {
  AddObjectOptions,
  NewCategory,
  NewFunctor,
  NewMorphism,
  NewNaturalTransformation,
  NewObject,
  ObjectPatch,
  RemovalReport,
  RemoveOptions,
  UpsertOutcome,
} from "./edit-inputs.js";
import {
  addMorphismWithFields,
  removeCategory,
  removeFunctor,
  removeNaturalTransformation,
  setComponent,
  setFunctorMapping,
  updateCategory,
  updateFunctor,
  updateMorphism,
  updateNaturalTransformation,
} from "./edit-authoring.js";
import type { FunctorPatch, MorphismPatch, NaturalTransformationPatch } from "./edit-authoring.js";
import { addObject, removeObject, updateObject, upsertObject } from "./edit-objects.js";
import { renameId } from "./edit-rename.js";
import type { RenameKind, RenamedId } from "./edit-rename.js";
import { setReviewStamp } from "./edit-reviews.js";
import type { StampTarget } from "./edit-reviews.js";
import { EditState } from "./edit-state.js";
import { addCategory, addFunctor, addMorphism, addNaturalTransformation, removeMorphism } from "./edit-structure.js";
import { YAML_OUTPUT_OPTIONS, detectIndentStyle } from "./yaml-edit.js";
import type { IndentStyle } from "./yaml-edit.js";

export class CategoryEditor {
  private readonly state: EditState;
  private readonly style: IndentStyle;

  /** `sourceText` (the file as read) sets the indentation the edited file is printed with. */
  constructor(doc: Document, model: CatDocModel, sourceText = "") {
    this.state = new EditState(doc, model);
    this.style = detectIndentStyle(sourceText);
  }

  /** The model as edited so far (a private copy; the loaded project is never touched). */
  get model(): CatDocModel {
    return this.state.model;
  }

  /** One line per change applied so far. */
  get changes(): readonly string[] {
    return this.state.changes;
  }

  get changed(): boolean {
    return this.state.changes.length > 0;
  }

  /** The edited file text. */
  toString(): string {
    return this.state.doc.toString({ ...YAML_OUTPUT_OPTIONS, ...this.style });
  }

  hasObject(objectId: string): boolean {
    return this.state.objectHome.has(objectId);
  }

  hasMorphism(morphismId: string): boolean {
    return this.state.morphisms.has(morphismId);
  }

  /** The category an object is in, if it exists. */
  categoryOf(objectId: string): string | undefined {
    return this.state.objectHome.get(objectId);
  }

  addCategory(category: NewCategory): void {
    addCategory(this.state, category);
  }

  /** Adds an object and (unless `identity: false`) its identity `id-<object>`. */
  addObject(categoryId: string, object: NewObject, options?: AddObjectOptions): void {
    addObject(this.state, categoryId, object, options);
  }

  /** Adds the object, or updates it when it already exists in that category. */
  upsertObject(categoryId: string, object: NewObject, options?: AddObjectOptions): UpsertOutcome {
    return upsertObject(this.state, categoryId, object, options);
  }

  /** Returns whether anything changed. */
  updateObject(objectId: string, patch: ObjectPatch): boolean {
    return updateObject(this.state, objectId, patch);
  }

  removeObject(objectId: string, options?: RemoveOptions): RemovalReport {
    return removeObject(this.state, objectId, options);
  }

  addMorphism(categoryId: string, morphism: NewMorphism): void {
    addMorphism(this.state, categoryId, morphism);
  }

  removeMorphism(morphismId: string, options?: RemoveOptions): RemovalReport {
    return removeMorphism(this.state, morphismId, options);
  }

  addFunctor(functor: NewFunctor): void {
    addFunctor(this.state, functor);
  }

  addNaturalTransformation(nt: NewNaturalTransformation): void {
    addNaturalTransformation(this.state, nt);
  }

  /** Returns whether anything changed. */
  updateCategory(categoryId: string, patch: { name?: string }): boolean {
    return updateCategory(this.state, categoryId, patch);
  }

  /** With objects in it or functors on it, only with cascade (which removes them too). */
  removeCategory(categoryId: string, options?: RemoveOptions): RemovalReport {
    return removeCategory(this.state, categoryId, options);
  }

  /** A morphism whose fields pass the model's schema (composite included). */
  addMorphismWithFields(categoryId: string, fields: Record<string, unknown>): void {
    addMorphismWithFields(this.state, categoryId, fields);
  }

  /** Returns whether anything changed; null removes a field. */
  updateMorphism(morphismId: string, patch: MorphismPatch): boolean {
    return updateMorphism(this.state, morphismId, patch);
  }

  /** Name and mapping entries (a null value removes one); returns whether anything changed. */
  updateFunctor(functorId: string, patch: FunctorPatch): boolean {
    return updateFunctor(this.state, functorId, patch);
  }

  /** Natural transformations on it go only with cascade. */
  removeFunctor(functorId: string, options?: RemoveOptions): RemovalReport {
    return removeFunctor(this.state, functorId, options);
  }

  /** Sets (null: removes) the image of a source object or morphism; returns whether anything changed. */
  setFunctorMapping(functorId: string, from: string, to: string | null): boolean {
    return setFunctorMapping(this.state, functorId, from, to);
  }

  updateNaturalTransformation(ntId: string, patch: NaturalTransformationPatch): boolean {
    return updateNaturalTransformation(this.state, ntId, patch);
  }

  removeNaturalTransformation(ntId: string): RemovalReport {
    return removeNaturalTransformation(this.state, ntId);
  }

  /** Sets (null: removes) the component η_A; returns whether anything changed. */
  setComponent(ntId: string, objectId: string, morphismId: string | null): boolean {
    return setComponent(this.state, ntId, objectId, morphismId);
  }

  /** Renames an id everywhere it is used (edit-rename.ts); returns the ids renamed. */
  rename(kind: RenameKind, from: string, to: string): RenamedId[] {
    return renameId(this.state, kind, from, to);
  }

  /** Records the review of a link (its ends' document hashes); returns whether anything changed. */
  setReviewStamp(target: StampTarget, stamp: ReviewStamp): boolean {
    return setReviewStamp(this.state, target, stamp);
  }
}
