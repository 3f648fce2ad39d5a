/**
 * Checks of one natural transformation η: F ⇒ G between functors C → D. Every object A of C
 * needs a component η_A, a morphism of D going F(A) → G(A). Naturality asks, for f: A → B,
 * that η_B∘F(f) = G(f)∘η_A; both sides are arrows F(A) → G(B), so with at most one arrow of
 * each meaning between two documents the square closes exactly when D has a morphism
 * F(A) → G(B) (NT_SQUARE_OPEN otherwise, a warning like MISSING_COMPOSITION).
 */
import type { Morphism, NaturalTransformation } from "../model.js";
import { hasArrow } from "../project-index.js";
import type { ProjectIndex } from "../project-index.js";
import type { IssueCollector } from "./issues.js";

export function checkNaturalTransformation(index: ProjectIndex, nt: NaturalTransformation, position: number, out: IssueCollector): void {
  const naturalTransformationId = nt.id;
  const firstAt = index.model.naturalTransformations.findIndex((n) => n.id === nt.id);
  if (firstAt !== position) {
    out.add(
      "DUPLICATE_ID",
      `Natural transformation id '${nt.id}' is defined more than once (naturalTransformations[${firstAt}] and naturalTransformations[${position}])`,
      { naturalTransformationId },
    );
  }

  const F = index.functors.get(nt.sourceFunctor);
  const G = index.functors.get(nt.targetFunctor);
  if (F === undefined) {
    out.add("NT_UNKNOWN_FUNCTOR", `Natural transformation '${nt.id}' has unknown source functor '${nt.sourceFunctor}'`, {
      naturalTransformationId,
      functorId: nt.sourceFunctor,
    });
  }
  if (G === undefined) {
    out.add("NT_UNKNOWN_FUNCTOR", `Natural transformation '${nt.id}' has unknown target functor '${nt.targetFunctor}'`, {
      naturalTransformationId,
      functorId: nt.targetFunctor,
    });
  }
  if (F === undefined || G === undefined) return;
  if (F.sourceCategory !== G.sourceCategory || F.targetCategory !== G.targetCategory) {
    out.add(
      "NT_FUNCTOR_MISMATCH",
      `Natural transformation '${nt.id}' joins '${F.id}' (${F.sourceCategory} → ${F.targetCategory}) and '${G.id}' (${G.sourceCategory} → ${G.targetCategory}), which do not share source and target categories`,
      { naturalTransformationId, functorId: F.id },
    );
    return;
  }
  const C = index.categories.get(F.sourceCategory);
  const D = index.categories.get(F.targetCategory);
  // Unknown categories are the functors' errors (FUNCTOR_UNKNOWN_CATEGORY).
  if (C === undefined || D === undefined) return;

  const valid = new Map<string, Morphism>();
  for (const objectId of C.objects.keys()) {
    const componentId = nt.components[objectId];
    if (componentId === undefined) {
      out.add("NT_MISSING_COMPONENT", `Natural transformation '${nt.id}' is missing the component for object '${objectId}'`, {
        naturalTransformationId,
        categoryId: C.category.id,
        objectId,
      });
      continue;
    }
    const component = D.morphisms.get(componentId);
    if (component === undefined) {
      out.add(
        "NT_UNKNOWN_COMPONENT",
        `Natural transformation '${nt.id}' has component '${componentId}' for '${objectId}', which is not a morphism of category '${D.category.id}'`,
        { naturalTransformationId, categoryId: D.category.id, objectId, morphismId: componentId },
      );
      continue;
    }
    const from = F.objectMapping[objectId];
    const to = G.objectMapping[objectId];
    // FUNCTOR_UNMAPPED_OBJECT or FUNCTOR_UNKNOWN_OBJECT: the functor's mapping is reported, once.
    if (from === undefined || to === undefined || !D.objects.has(from) || !D.objects.has(to)) continue;
    if (component.source !== from || component.target !== to) {
      out.add(
        "NT_COMPONENT_TYPE",
        `Component η_${objectId} = '${componentId}' of '${nt.id}' goes ${component.source} → ${component.target}, expected F(${objectId}) → G(${objectId}) = ${from} → ${to}`,
        { naturalTransformationId, categoryId: D.category.id, objectId, morphismId: componentId },
      );
      continue;
    }
    valid.set(objectId, component);
  }
  for (const objectId of Object.keys(nt.components)) {
    if (!C.objects.has(objectId)) {
      out.add(
        "NT_UNKNOWN_COMPONENT",
        `Natural transformation '${nt.id}' has a component for '${objectId}', which is not an object of category '${C.category.id}'`,
        { naturalTransformationId, categoryId: C.category.id, objectId },
      );
    }
  }

  for (const f of C.category.morphisms) {
    if (f.source === f.target || !valid.has(f.source) || !valid.has(f.target)) continue;
    const FA = F.objectMapping[f.source];
    const GB = G.objectMapping[f.target];
    if (FA === undefined || GB === undefined || FA === GB || hasArrow(D, FA, GB)) continue;
    out.add(
      "NT_SQUARE_OPEN",
      `Naturality square of '${nt.id}' for '${f.id}' (${f.source} → ${f.target}) is open: no morphism F(${f.source}) → G(${f.target}) (${FA} → ${GB}) in category '${D.category.id}'`,
      { naturalTransformationId, categoryId: C.category.id, morphismId: f.id, objectIds: [f.source, f.target] },
    );
  }
}
