/** What callers hand the editor (and the store) to change category.yaml. */

export interface NewCategory {
  id: string;
  name: string;
}

export interface NewObject {
  id: string;
  title: string;
  domain: string;
  metadata?: Record<string, unknown>;
  /** Inline Markdown; omit when the document lives in a file (point to it with metadata.path). */
  content?: string;
}

export interface AddObjectOptions {
  /** Also add the identity `id-<object>` (marked isIdentity: true). Default true. */
  identity?: boolean;
}

export interface ObjectPatch {
  title?: string;
  domain?: string;
  /** New inline content; null removes it. */
  content?: string | null;
  /** Merged into the object's metadata; a null value removes that key. */
  metadata?: Record<string, unknown>;
}

export interface NewMorphism {
  id: string;
  name: string;
  source: string;
  target: string;
  metadata?: Record<string, unknown>;
}

export interface NewFunctor {
  id: string;
  name: string;
  sourceCategory: string;
  targetCategory: string;
  objectMapping?: Record<string, string>;
  morphismMapping?: Record<string, string>;
}

export interface NewNaturalTransformation {
  id: string;
  name: string;
  sourceFunctor: string;
  targetFunctor: string;
  components?: Record<string, string>;
}

export interface RemoveOptions {
  /**
   * Also remove what refers to it: morphisms to and from a removed object, functor mapping
   * entries and natural-transformation components naming a removed object or morphism.
   * Without it, a removal that would leave references behind fails with CONFLICT.
   */
  cascade?: boolean;
}

export interface RemovalReport {
  objects: string[];
  morphisms: string[];
  /** Mapping entries and components removed, as `functor:<id>:<key>` / `nt:<id>:<key>`. */
  references: string[];
}

export type UpsertOutcome = "added" | "updated" | "unchanged";
