/**
 * Checks of one functor F: C → D. Objects and morphisms of C must all be mapped into D, F(f)
 * must go F(source f) → F(target f), F(id_A) must be the identity of F(A), and F(g∘f) must be
 * F(g)∘F(f) with composites resolved exactly (functor-composition.ts). Each bad mapping is
 * reported once: a morphism whose end is mapped outside D is not also a mismatch, nor is an
 * identity's misplaced image also an unpreserved identity.
 */
import type { Functor } from "../model.js";
import type { CategoryIndex, ProjectIndex } from "../project-index.js";
import { checkFunctorComposition } from "./functor-composition.js";
import { candidateImages, candidatesClause } from "./candidate-images.js";
import type { IssueCollector } from "./issues.js";

export function checkFunctor(index: ProjectIndex, functor: Functor, position: number, out: IssueCollector): void {
  const functorId = functor.id;
  const firstAt = index.model.functors.findIndex((f) => f.id === functorId);
  if (firstAt !== position) {
    out.add("DUPLICATE_ID", `Functor id '${functorId}' is defined more than once (functors[${firstAt}] and functors[${position}])`, {
      functorId,
    });
  }

  const source = index.categories.get(functor.sourceCategory);
  const target = index.categories.get(functor.targetCategory);
  if (source === undefined) {
    out.add("FUNCTOR_UNKNOWN_CATEGORY", `Functor '${functorId}' has unknown source category '${functor.sourceCategory}'`, {
      functorId,
      categoryId: functor.sourceCategory,
    });
  }
  if (target === undefined) {
    out.add("FUNCTOR_UNKNOWN_CATEGORY", `Functor '${functorId}' has unknown target category '${functor.targetCategory}'`, {
      functorId,
      categoryId: functor.targetCategory,
    });
  }
  if (source === undefined || target === undefined) return;

  checkObjectMapping(functor, source, target, out);
  checkMorphismMapping(functor, source, target, out);
  checkIdentities(functor, source, target, out);
  checkFunctorComposition(functor, source, target, out);
}

function checkObjectMapping(functor: Functor, source: CategoryIndex, target: CategoryIndex, out: IssueCollector): void {
  const functorId = functor.id;
  const categoryId = source.category.id;
  for (const objectId of source.objects.keys()) {
    const image = functor.objectMapping[objectId];
    if (image === undefined) {
      out.add("FUNCTOR_UNMAPPED_OBJECT", `Functor '${functorId}' does not map object '${objectId}' of category '${categoryId}'`, {
        functorId,
        categoryId,
        objectId,
      });
    } else if (!target.objects.has(image)) {
      out.add(
        "FUNCTOR_UNKNOWN_OBJECT",
        `Functor '${functorId}' maps '${objectId}' to '${image}', which is not an object of category '${target.category.id}'`,
        { functorId, categoryId: target.category.id, objectId },
      );
    }
  }
  for (const objectId of Object.keys(functor.objectMapping)) {
    if (!source.objects.has(objectId)) {
      out.add(
        "FUNCTOR_UNKNOWN_OBJECT",
        `Functor '${functorId}' maps '${objectId}', which is not an object of its source category '${categoryId}'`,
        { functorId, categoryId, objectId },
      );
    }
  }
}

function checkMorphismMapping(functor: Functor, source: CategoryIndex, target: CategoryIndex, out: IssueCollector): void {
  const functorId = functor.id;
  const categoryId = source.category.id;
  for (const morphism of source.morphisms.values()) {
    const imageId = functor.morphismMapping[morphism.id];
    if (imageId === undefined) {
      const candidates = candidateImages(functor, source, target, morphism);
      const clause = candidatesClause(candidates, functor.objectMapping[morphism.source], functor.objectMapping[morphism.target]);
      out.add(
        "FUNCTOR_UNMAPPED_MORPHISM",
        `Functor '${functorId}' does not map morphism '${morphism.id}' of category '${categoryId}'${clause}`,
        {
          functorId,
          categoryId,
          morphismId: morphism.id,
          ...(candidates.kind === "candidates" ? { candidateIds: candidates.ids } : {}),
        },
      );
      continue;
    }
    const image = target.morphisms.get(imageId);
    if (image === undefined) {
      out.add(
        "FUNCTOR_UNKNOWN_MORPHISM",
        `Functor '${functorId}' maps '${morphism.id}' to '${imageId}', which is not a morphism of category '${target.category.id}'`,
        { functorId, categoryId: target.category.id, morphismId: morphism.id },
      );
      continue;
    }
    const fromImage = functor.objectMapping[morphism.source];
    const toImage = functor.objectMapping[morphism.target];
    // An end unmapped or mapped outside D is reported once, as that object's mapping.
    if (fromImage === undefined || toImage === undefined || !target.objects.has(fromImage) || !target.objects.has(toImage)) continue;
    if (image.source !== fromImage || image.target !== toImage) {
      out.add(
        "FUNCTOR_MORPHISM_MISMATCH",
        `Functor '${functorId}' maps '${morphism.id}' (${morphism.source} → ${morphism.target}) to '${image.id}' (${image.source} → ${image.target}), expected ${fromImage} → ${toImage}`,
        { functorId, categoryId, morphismId: morphism.id, morphismIds: [morphism.id, image.id] },
      );
    }
  }
  for (const morphismId of Object.keys(functor.morphismMapping)) {
    if (!source.morphisms.has(morphismId)) {
      out.add(
        "FUNCTOR_UNKNOWN_MORPHISM",
        `Functor '${functorId}' maps '${morphismId}', which is not a morphism of its source category '${categoryId}'`,
        { functorId, categoryId, morphismId },
      );
    }
  }
}

/** F(id_A) must be the identity of F(A); unmapped or unknown images are reported above. */
function checkIdentities(functor: Functor, source: CategoryIndex, target: CategoryIndex, out: IssueCollector): void {
  for (const [objectId, identity] of source.identities) {
    const imageId = functor.morphismMapping[identity.id];
    const objectImage = functor.objectMapping[objectId];
    const image = imageId === undefined ? undefined : target.morphisms.get(imageId);
    if (image === undefined || objectImage === undefined) continue;
    // An image that is not even an endomorphism of F(A) is FUNCTOR_MORPHISM_MISMATCH already.
    if (image.source !== objectImage || image.target !== objectImage) continue;
    const expected = target.identities.get(objectImage);
    if (expected !== undefined && expected.id !== image.id) {
      out.add(
        "FUNCTOR_IDENTITY_NOT_PRESERVED",
        `Functor '${functor.id}' does not preserve identity for object '${objectId}': F(${identity.id}) = '${image.id}' is not the identity '${expected.id}' of '${objectImage}'`,
        { functorId: functor.id, categoryId: source.category.id, objectId, morphismId: identity.id, morphismIds: [identity.id, image.id] },
      );
    }
  }
}
