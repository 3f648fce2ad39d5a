/**
 * The links of a project whose ends are documents, and how a review names them. A link is
 *  - a morphism f: A → B that is not an identity (named by its id, `f`);
 *  - an object mapping A ↦ F(A) of a functor F (named `F/A`);
 *  - a component η_A: F(A) → G(A) of a natural transformation η (named `η/A`).
 * Ids never contain `/`, so the names cannot collide with one another. A morphism mapping
 * f ↦ F(f) relates arrows, not documents: it has no stamp of its own, and suspicion reaches
 * its image F(f) instead (suspect.ts).
 *
 * Each link may carry the stamp of its last review in category.yaml (model.ts's `reviewed`):
 * on the morphism, `reviewed: {source: <hash>, target: <hash>}`; on a functor or natural
 * transformation, `reviewed: {<object id>: {source: <hash>, target: <hash>}}`.
 */
import type { ReviewStamp } from "../model.js";
import type { ProjectIndex } from "../project-index.js";

export type LinkKind = "morphism" | "mapping" | "component";

export interface ChangeLink {
  /** How `catdoc review` names it: `f`, `F/A` or `η/A`. */
  id: string;
  kind: LinkKind;
  /** The category of a morphism (or of a component's morphism). */
  categoryId: string | undefined;
  functorId: string | undefined;
  naturalTransformationId: string | undefined;
  /** The source object of a mapping or component. */
  objectId: string | undefined;
  /** The morphism itself, or a component's morphism. */
  morphismId: string | undefined;
  /** The object ids at its two ends, whose documents the stamp records. */
  source: string;
  target: string;
  reviewed: ReviewStamp | undefined;
}

/** Every link has every field, in one order (one object shape: the checks over 10,000 links stay fast). */
function link(fields: Partial<ChangeLink> & Pick<ChangeLink, "id" | "kind" | "source" | "target" | "reviewed">): ChangeLink {
  return {
    id: fields.id,
    kind: fields.kind,
    categoryId: fields.categoryId,
    functorId: fields.functorId,
    naturalTransformationId: fields.naturalTransformationId,
    objectId: fields.objectId,
    morphismId: fields.morphismId,
    source: fields.source,
    target: fields.target,
    reviewed: fields.reviewed,
  };
}

/** Every link of the project (first definitions of each id), in file order. */
export function projectLinks(index: ProjectIndex): ChangeLink[] {
  const links: ChangeLink[] = [];
  for (const category of index.categories.values()) {
    for (const morphism of category.morphisms.values()) {
      if (category.identities.get(morphism.source) === morphism) continue;
      if (!category.objects.has(morphism.source) || !category.objects.has(morphism.target)) continue;
      links.push(
        link({
          id: morphism.id,
          kind: "morphism",
          categoryId: category.category.id,
          morphismId: morphism.id,
          source: morphism.source,
          target: morphism.target,
          reviewed: morphism.reviewed,
        }),
      );
    }
  }
  for (const functor of index.functors.values()) {
    const from = index.categories.get(functor.sourceCategory);
    const to = index.categories.get(functor.targetCategory);
    if (from === undefined || to === undefined) continue;
    for (const [objectId, image] of Object.entries(functor.objectMapping)) {
      if (!from.objects.has(objectId) || !to.objects.has(image)) continue;
      links.push(
        link({
          id: `${functor.id}/${objectId}`,
          kind: "mapping",
          functorId: functor.id,
          objectId,
          source: objectId,
          target: image,
          reviewed: functor.reviewed?.[objectId],
        }),
      );
    }
  }
  for (const nt of index.naturalTransformations.values()) {
    const functor = index.functors.get(nt.sourceFunctor);
    const category = functor === undefined ? undefined : index.categories.get(functor.targetCategory);
    if (category === undefined) continue;
    for (const [objectId, morphismId] of Object.entries(nt.components)) {
      const morphism = category.morphisms.get(morphismId);
      if (morphism === undefined || !category.objects.has(morphism.source) || !category.objects.has(morphism.target)) continue;
      links.push(
        link({
          id: `${nt.id}/${objectId}`,
          kind: "component",
          categoryId: category.category.id,
          naturalTransformationId: nt.id,
          objectId,
          morphismId,
          source: morphism.source,
          target: morphism.target,
          reviewed: nt.reviewed?.[objectId],
        }),
      );
    }
  }
  return links;
}

/** `f (a → b)`, `F/a (a ↦ x)`, `eta/a (x → y)`: a link for messages. */
export function describeLink(link: ChangeLink): string {
  return `'${link.id}' (${link.source} ${link.kind === "mapping" ? "↦" : "→"} ${link.target})`;
}
