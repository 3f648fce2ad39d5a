/** Adding categories, morphisms, functors and natural transformations; removing morphisms. */
import { CatDocConflictError, CatDocInputError, CatDocNotFoundError } from "../errors.js";
import type { Category, Functor, Morphism, NaturalTransformation } from "../model.js";
import type { NewCategory, NewFunctor, NewMorphism, NewNaturalTransformation, RemovalReport, RemoveOptions } from "./edit-inputs.js";
import { checkNewId, checkText } from "./edit-state.js";
import type { EditState } from "./edit-state.js";
import { referencesTo, removeMorphisms, removeReferences } from "./edit-references.js";
import { appendItem, blockSeqAt } from "./yaml-edit.js";

export function addCategory(state: EditState, input: NewCategory): void {
  checkNewId("category", input.id, state.categories.has(input.id));
  const category: Category = { id: input.id, name: checkText("name", input.name), objects: [], morphisms: [] };
  appendItem(state.doc, state.section("categories"), { id: category.id, name: category.name, objects: [], morphisms: [] });
  state.model.categories.push(category);
  state.categories.set(category.id, category);
  state.record(`add category '${category.id}'`);
}

export function addMorphism(state: EditState, categoryId: string, input: NewMorphism): void {
  const { category, node } = state.requireCategory(categoryId);
  const taken = state.morphisms.get(input.id);
  checkNewId("morphism", input.id, taken !== undefined, `category '${taken?.categoryId ?? ""}'`);
  const name = checkText("name", input.name);
  state.requireObjectIn(categoryId, checkText("source", input.source));
  state.requireObjectIn(categoryId, checkText("target", input.target));
  const morphism: Morphism = {
    id: input.id,
    name,
    source: input.source,
    target: input.target,
    ...(input.metadata === undefined ? {} : { metadata: structuredClone(input.metadata) }),
  };
  appendItem(state.doc, blockSeqAt(state.doc, node, "morphisms"), { ...morphism });
  category.morphisms.push(morphism);
  state.morphisms.set(morphism.id, { morphism, categoryId });
  state.record(`add morphism '${morphism.id}' (${morphism.source} → ${morphism.target}) to category '${categoryId}'`);
}

export function removeMorphism(state: EditState, morphismId: string, options: RemoveOptions = {}): RemovalReport {
  const entry = state.morphisms.get(morphismId);
  if (entry === undefined) throw new CatDocNotFoundError("morphism", morphismId);
  const ids = new Set([morphismId]);
  const references = referencesTo(state, new Set(), ids);
  if (options.cascade !== true && references.length > 0) {
    throw new CatDocConflictError(
      `Morphism '${morphismId}' is still referenced (${references.join(", ")}); remove those first or use cascade`,
      {
        kind: "morphism",
        id: morphismId,
        references,
      },
    );
  }
  removeReferences(state, new Set(), ids);
  removeMorphisms(state, entry.categoryId, ids);
  return { objects: [], morphisms: [morphismId], references };
}

/** Every key must name something in `from`, every value something in `to`. */
function checkMapping(
  mapping: Record<string, string>,
  label: string,
  keyKind: "object" | "morphism",
  valueKind: "object" | "morphism",
  from: string,
  to: string,
  state: EditState,
): Record<string, string> {
  const has = (kind: "object" | "morphism", categoryId: string, id: string) =>
    kind === "object" ? state.objectHome.get(id) === categoryId : state.morphisms.get(id)?.categoryId === categoryId;
  for (const [key, value] of Object.entries(mapping)) {
    if (typeof value !== "string") throw new CatDocInputError(`${label} '${key}' must map to an id`, { key });
    if (!has(keyKind, from, key))
      throw new CatDocNotFoundError(keyKind, key, {
        categoryId: from,
        message: `${label}: ${keyKind} '${key}' not found in category '${from}'`,
      });
    if (!has(valueKind, to, value))
      throw new CatDocNotFoundError(valueKind, value, {
        categoryId: to,
        message: `${label}: ${valueKind} '${value}' not found in category '${to}'`,
      });
  }
  return { ...mapping };
}

export function addFunctor(state: EditState, input: NewFunctor): void {
  checkNewId("functor", input.id, state.functors.has(input.id));
  const name = checkText("name", input.name);
  state.requireCategory(input.sourceCategory);
  state.requireCategory(input.targetCategory);
  const functor: Functor = {
    id: input.id,
    name,
    sourceCategory: input.sourceCategory,
    targetCategory: input.targetCategory,
    objectMapping: checkMapping(
      input.objectMapping ?? {},
      "objectMapping",
      "object",
      "object",
      input.sourceCategory,
      input.targetCategory,
      state,
    ),
    morphismMapping: checkMapping(
      input.morphismMapping ?? {},
      "morphismMapping",
      "morphism",
      "morphism",
      input.sourceCategory,
      input.targetCategory,
      state,
    ),
  };
  appendItem(state.doc, state.section("functors"), { ...functor });
  state.model.functors.push(functor);
  state.functors.set(functor.id, functor);
  state.record(`add functor '${functor.id}' (${functor.sourceCategory} → ${functor.targetCategory})`);
}

export function addNaturalTransformation(state: EditState, input: NewNaturalTransformation): void {
  checkNewId("naturalTransformation", input.id, state.naturalTransformations.has(input.id));
  const name = checkText("name", input.name);
  const F = state.requireFunctor(input.sourceFunctor);
  const G = state.requireFunctor(input.targetFunctor);
  if (F.sourceCategory !== G.sourceCategory || F.targetCategory !== G.targetCategory) {
    throw new CatDocInputError(
      `Functors '${F.id}' (${F.sourceCategory} → ${F.targetCategory}) and '${G.id}' (${G.sourceCategory} → ${G.targetCategory}) do not share source and target categories`,
      { sourceFunctor: F.id, targetFunctor: G.id },
    );
  }
  const nt: NaturalTransformation = {
    id: input.id,
    name,
    sourceFunctor: F.id,
    targetFunctor: G.id,
    components: checkMapping(input.components ?? {}, "components", "object", "morphism", F.sourceCategory, F.targetCategory, state),
  };
  appendItem(state.doc, state.section("naturalTransformations"), { ...nt });
  state.model.naturalTransformations.push(nt);
  state.naturalTransformations.set(nt.id, nt);
  state.record(`add natural transformation '${nt.id}' (${F.id} ⇒ ${G.id})`);
}
