/**
 * The identity rule of CatDoc.
 *
 * The identity of an object A is the endomorphism A → A marked `metadata.isIdentity: true`
 * (the first such one in file order); when none is marked, it is the morphism with id
 * `id-<A>`, provided that morphism goes A → A. An object with neither has no identity
 * (validation reports MISSING_IDENTITY). A marked morphism that is not an endomorphism is no
 * identity, and any other endomorphism of A is an ordinary arrow.
 *
 * Every file of the original tool marks its identities (`isIdentity: true`), and its templates
 * name them `id-<object>`, so both spellings of the rule agree on them.
 */
import type { Morphism } from "./model.js";

/** The id the rule falls back to for object `objectId`. */
export function identityIdFor(objectId: string): string {
  return `id-${objectId}`;
}

export function isMarkedIdentity(morphism: Morphism): boolean {
  return morphism.metadata?.["isIdentity"] === true;
}

/**
 * Applies the rule to one category: object id → its identity morphism. `byId` is the
 * category's morphisms by id (first occurrence).
 */
export function findIdentities(
  objectIds: Iterable<string>,
  morphisms: readonly Morphism[],
  byId: ReadonlyMap<string, Morphism>,
): Map<string, Morphism> {
  const marked = new Map<string, Morphism>();
  for (const morphism of morphisms) {
    if (morphism.source === morphism.target && isMarkedIdentity(morphism) && !marked.has(morphism.source)) {
      marked.set(morphism.source, morphism);
    }
  }
  const identities = new Map<string, Morphism>();
  for (const objectId of objectIds) {
    const chosen = marked.get(objectId) ?? byId.get(identityIdFor(objectId));
    if (chosen !== undefined && chosen.source === objectId && chosen.target === objectId) {
      identities.set(objectId, chosen);
    }
  }
  return identities;
}
