/**
 * The candidate images of a morphism under a functor F: C → D — the arrows of D that F(f) may be
 * so that F(f) goes F(source f) → F(target f): every morphism of D between the images of f's
 * endpoints, or for the identity of A the identity of F(A) alone. Named in
 * FUNCTOR_UNMAPPED_MORPHISM (./functors.ts) and applied by the `map` edit (../authoring/apply-edit.ts).
 */
import type { Functor, Morphism } from "../model.js";
import type { CategoryIndex } from "../project-index.js";

export type CandidateImages =
  /** F(f) may be any of these (possibly none: no arrow of D goes between the images yet). */
  | { kind: "candidates"; ids: string[] }
  /** An endpoint of f is not mapped yet: no candidate can be named. */
  | { kind: "unmapped-endpoint"; objectIds: string[] };

export function candidateImages(functor: Functor, source: CategoryIndex, target: CategoryIndex, morphism: Morphism): CandidateImages {
  const from = functor.objectMapping[morphism.source];
  const to = functor.objectMapping[morphism.target];
  if (from === undefined || to === undefined) {
    const objectIds = [morphism.source, morphism.target].filter(
      (id, i, all) => functor.objectMapping[id] === undefined && all.indexOf(id) === i,
    );
    return { kind: "unmapped-endpoint", objectIds };
  }
  if (source.identities.get(morphism.source)?.id === morphism.id) {
    const identity = target.identities.get(from);
    return { kind: "candidates", ids: identity === undefined ? [] : [identity.id] };
  }
  const ids: string[] = [];
  for (const arrow of target.outgoing.get(from) ?? []) if (arrow.target === to) ids.push(arrow.id);
  return { kind: "candidates", ids };
}

/** How many candidates a message names before "and N more". */
const NAMED = 5;

/** The end of a FUNCTOR_UNMAPPED_MORPHISM message: what F(f) may be. */
export function candidatesClause(candidates: CandidateImages, fromImage: string | undefined, toImage: string | undefined): string {
  if (candidates.kind === "unmapped-endpoint")
    return `; map object${candidates.objectIds.length > 1 ? "s" : ""} ${candidates.objectIds.map((id) => `'${id}'`).join(" and ")} first`;
  const { ids } = candidates;
  if (ids.length === 0) return `; no morphism ${fromImage ?? "?"} → ${toImage ?? "?"} exists to map it to`;
  const named = ids
    .slice(0, NAMED)
    .map((id) => `'${id}'`)
    .join(", ");
  const more = ids.length > NAMED ? ` and ${ids.length - NAMED} more` : "";
  return `; candidate image${ids.length === 1 ? "" : "s"}: ${named}${more}`;
}
