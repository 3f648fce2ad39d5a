/**
 * References across categories, read as functor mappings. A test document in `tests` that
 * `covers @req-login` (an object of `requirements`) says that the functor requirements → tests
 * maps req-login to the test: the referenced object is mapped to the referring one. When one
 * functor joins the two categories (in either direction) the proposal is its mapping entry —
 * `objectMapping.<key>: <image>` — and `applyProposals` writes it in the import's edit (with the
 * identity of the key mapped to the identity of the image, the one lawful choice); with no
 * functor, or several, nothing is applied and the proposal gives the functor to create or names
 * the candidates. A functor maps an object to one image: an entry that exists with another image
 * is a conflict, and references that give one key several images are ambiguous; neither is
 * applied. (Natural-transformation components are arrows inside one category, so a reference
 * across categories never proposes one.)
 */
import { findIdentities } from "../identity.js";
import type { Functor } from "../model.js";
import type { CategoryEditor } from "../store/editor.js";
import type { Crossing } from "./plan-morphisms.js";
import type { MappingProposal, ProposalStatus } from "./types.js";

const quote = (id: string) => JSON.stringify(id);

function between(editor: CategoryEditor, a: string, b: string): Functor[] {
  return editor.model.functors.filter(
    (f) => (f.sourceCategory === a && f.targetCategory === b) || (f.sourceCategory === b && f.targetCategory === a),
  );
}

/** A functor id for the proposed functor: `requirements-to-tests`. */
export function proposedFunctorId(sourceCategory: string, targetCategory: string): string {
  return `${sourceCategory}-to-${targetCategory}`;
}

/** The identity of an object in the edited model (identity.ts's rule), if it has one. */
function identityOf(editor: CategoryEditor, categoryId: string, objectId: string): string | undefined {
  const category = editor.model.categories.find((c) => c.id === categoryId);
  if (category === undefined) return undefined;
  const byId = new Map(category.morphisms.map((m) => [m.id, m] as const));
  return findIdentities([objectId], category.morphisms, byId).get(objectId)?.id;
}

/**
 * A functor maps the identity of A to the identity of F(A) (its only lawful image): applied with
 * the object mapping when both exist and the functor maps the identity to nothing yet.
 */
function mapIdentity(editor: CategoryEditor, functor: Functor, objectId: string, image: string): string | undefined {
  const from = identityOf(editor, functor.sourceCategory, objectId);
  const to = identityOf(editor, functor.targetCategory, image);
  const mapping = editor.model.functors.find((f) => f.id === functor.id)?.morphismMapping;
  if (from === undefined || to === undefined || mapping === undefined || mapping[from] !== undefined) return undefined;
  editor.setFunctorMapping(functor.id, from, to);
  return `${from} ↦ ${to}`;
}

export function planProposals(editor: CategoryEditor, crossings: readonly Crossing[], apply: boolean): MappingProposal[] {
  const proposals: MappingProposal[] = [];
  for (const crossing of crossings) {
    const functors = between(editor, crossing.sourceCategory, crossing.targetCategory);
    const only = functors.length === 1 ? functors[0] : undefined;
    // The referenced object (the crossing's target) is the source of the mapping, unless the one functor goes the other way.
    const forward = only !== undefined && only.sourceCategory === crossing.sourceCategory;
    const [objectId, image] = forward ? [crossing.source, crossing.target] : [crossing.target, crossing.source];
    const [sourceCategory, targetCategory] = forward
      ? [crossing.sourceCategory, crossing.targetCategory]
      : [crossing.targetCategory, crossing.sourceCategory];
    proposals.push({
      from: crossing.source,
      to: crossing.target,
      relation: crossing.relation,
      kind: crossing.kind,
      ...(only === undefined ? {} : { functorId: only.id }),
      sourceCategory,
      targetCategory,
      objectId,
      image,
      status: "proposed",
      edit: "",
      note: "",
    });
  }

  // Keys given several images by this import's references (per functor, or per proposed functor).
  const images = new Map<string, Set<string>>();
  const keyOf = (p: MappingProposal) => `${p.functorId ?? `${p.sourceCategory}\u0000${p.targetCategory}`}\u0000${p.objectId}`;
  for (const p of proposals) {
    const set = images.get(keyOf(p)) ?? new Set<string>();
    set.add(p.image);
    images.set(keyOf(p), set);
  }

  for (const p of proposals) {
    const functors = between(editor, p.sourceCategory, p.targetCategory);
    const entry = `objectMapping: {${quote(p.objectId)}: ${quote(p.image)}}`;
    const others = [...(images.get(keyOf(p)) ?? [])].filter((image) => image !== p.image);
    const set = (status: ProposalStatus, edit: string, note: string) => Object.assign(p, { status, edit, note });
    if (functors.length === 0) {
      const id = proposedFunctorId(p.sourceCategory, p.targetCategory);
      set(
        "no functor",
        `functors: + {id: ${quote(id)}, name: ${quote(`${p.sourceCategory} to ${p.targetCategory}`)}, sourceCategory: ${quote(p.sourceCategory)}, targetCategory: ${quote(p.targetCategory)}, ${entry}}`,
        `No functor joins '${p.sourceCategory}' and '${p.targetCategory}': create one with this mapping (proposals are applied only to an existing functor).`,
      );
      continue;
    }
    if (functors.length > 1) {
      set(
        "several functors",
        `functors[<one of ${functors.map((f) => f.id).join(", ")}>].${entry}`,
        `Functors ${functors.map((f) => `'${f.id}'`).join(", ")} join '${p.sourceCategory}' and '${p.targetCategory}': choose one and add the mapping to it.`,
      );
      continue;
    }
    const functor = functors[0] as Functor;
    const edit = `functors[${functor.id}].${entry}`;
    const current = editor.model.functors.find((f) => f.id === functor.id)?.objectMapping[p.objectId];
    if (current === p.image) {
      set("mapped", edit, `Functor '${functor.id}' maps '${p.objectId}' to '${p.image}' already.`);
    } else if (current !== undefined) {
      set(
        "conflict",
        edit,
        `Functor '${functor.id}' maps '${p.objectId}' to '${current}'; a functor maps an object to one image, so it is left as it is.`,
      );
    } else if (others.length > 0) {
      set(
        "ambiguous",
        edit,
        `References in this import also give '${p.objectId}' the image(s) ${others.map((o) => `'${o}'`).join(", ")}; a functor maps an object to one image: choose one.`,
      );
    } else if (apply) {
      editor.setFunctorMapping(functor.id, p.objectId, p.image);
      const identities = mapIdentity(editor, functor, p.objectId, p.image);
      set("applied", edit, `Mapped in functor '${functor.id}'${identities === undefined ? "" : `, with the identities (${identities})`}.`);
    } else {
      set("proposed", edit, `Functor '${functor.id}' does not map '${p.objectId}' yet; applying the proposals writes this entry.`);
    }
  }
  return proposals;
}
