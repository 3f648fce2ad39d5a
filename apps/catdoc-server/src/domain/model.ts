/**
 * The CatDoc model: what `.catdoc/category.yaml` holds, as zod schemas and the types they give.
 *
 * The schemas accept every file the original CatDoc tool wrote or shipped: empty sections
 * (`objects:` with no value) read as empty lists, `metadata:` may be absent or empty, and ids
 * written as plain YAML numbers (`id: 2024`) are read as strings. Unknown keys are ignored by the
 * model; the store edits the YAML document itself, so they survive every write.
 */
import { z } from "zod";
import { idMapping, list, optional, text } from "./schema-fields.js";

const metadata = optional(z.record(z.string(), z.unknown()));

/**
 * What a review recorded about a link (change-impact/links.ts): the content hashes of the
 * documents at its two ends when it was last reviewed (`catdoc review`).
 */
export const ReviewStampSchema = z.object({ source: text, target: text });
/** A functor's or natural transformation's stamps, by the source object id of the mapping or component. */
const reviewStamps = optional(z.record(z.string(), ReviewStampSchema));

export const CatDocObjectSchema = z.object({
  id: text,
  title: text,
  domain: text,
  metadata,
  /** Inline Markdown content of the document, when it is not kept in a file. */
  content: optional(z.string()),
});

export const MorphismSchema = z.object({
  id: text,
  name: text,
  source: text,
  target: text,
  metadata,
  reviewed: optional(ReviewStampSchema),
  /**
   * The path this morphism composes, in path order: `[f, g]` declares it to be g∘f (`[f, g, h]`:
   * h∘g∘f). It settles which of several parallel arrows a composite is (validate/composites.ts).
   */
  composite: optional(z.array(text).min(2, "a composite names at least two morphisms (the path f, g of g∘f)")),
});

export const CategorySchema = z.object({
  id: text,
  name: text,
  objects: list(CatDocObjectSchema),
  morphisms: list(MorphismSchema),
});

export const FunctorSchema = z.object({
  id: text,
  name: text,
  sourceCategory: text,
  targetCategory: text,
  /** source object id → target object id */
  objectMapping: idMapping,
  /** source morphism id → target morphism id */
  morphismMapping: idMapping,
  /** source object id → the review stamp of its object mapping */
  reviewed: reviewStamps,
});

export const NaturalTransformationSchema = z.object({
  id: text,
  name: text,
  sourceFunctor: text,
  targetFunctor: text,
  /** object id A of the functors' source category → morphism id of η_A in their target category */
  components: idMapping,
  /** object id A → the review stamp of the component η_A */
  reviewed: reviewStamps,
});

export const CatDocModelSchema = z.preprocess(
  (value) => value ?? {},
  z.object({
    categories: list(CategorySchema),
    functors: list(FunctorSchema),
    naturalTransformations: list(NaturalTransformationSchema),
  }),
);

export type CatDocObject = z.output<typeof CatDocObjectSchema>;
export type Morphism = z.output<typeof MorphismSchema>;
export type ReviewStamp = z.output<typeof ReviewStampSchema>;
export type Category = z.output<typeof CategorySchema>;
export type Functor = z.output<typeof FunctorSchema>;
export type NaturalTransformation = z.output<typeof NaturalTransformationSchema>;
/** The whole of `.catdoc/category.yaml`. */
export type CatDocModel = z.output<typeof CatDocModelSchema>;

/** The few fields that name a morphism in paths and reports. */
export interface MorphismRef {
  id: string;
  name: string;
  source: string;
  target: string;
}

export function morphismRef(morphism: Morphism): MorphismRef {
  return { id: morphism.id, name: morphism.name, source: morphism.source, target: morphism.target };
}
