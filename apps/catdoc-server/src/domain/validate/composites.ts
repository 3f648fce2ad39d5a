/**
 * Exact composition. For a composable pair f: A → B, g: B → C, the composite g∘f is the
 * morphism that declares `composite: [f, g]` (model.ts); else the only arrow A → C, when there
 * is exactly one; with several parallel arrows A → C and no declaration it is ambiguous, with
 * none it is missing. The declarations themselves are checked here: every id a morphism of the
 * category, the path composable, its ends the declaring morphism's ends, one declaration per
 * pair.
 */
import type { Morphism } from "../model.js";
import type { CategoryIndex } from "../project-index.js";
import type { IssueCollector } from "./issues.js";

/**
 * g∘f: the morphism when it is settled (declared, or the only arrow), the parallel candidates
 * (two or more) when it is ambiguous, undefined when no arrow A → C exists. No object is made
 * per pair: a large project resolves tens of thousands of them.
 */
export type Composite = Morphism | readonly Morphism[] | undefined;

export interface CategoryComposites {
  /** f id → g id → the morphism declaring `composite: [f, g]` (the first valid one). */
  declared: Map<string, Map<string, Morphism>>;
  /** source id → target id → every morphism between them, in file order (nested maps: no key strings to build per pair). */
  between: Map<string, Map<string, Morphism[]>>;
  /** Declarations that failed a check, with the issue to report: code, message and ids. */
  problems: DeclarationProblem[];
  /** Every pair with a settled composite, flat (f, g, g∘f, f, g, g∘f, …): see `settledComposites`. */
  settled?: Morphism[];
}

interface DeclarationProblem {
  code: "COMPOSITE_UNKNOWN_MORPHISM" | "COMPOSITE_NOT_COMPOSABLE" | "COMPOSITE_ENDPOINT_MISMATCH" | "COMPOSITE_CONFLICT";
  message: string;
  morphismId: string;
  morphismIds: string[];
}

const built = new WeakMap<CategoryIndex, CategoryComposites>();

/** The declarations and parallel arrows of one category, built once per category index. */
export function compositesOf(entry: CategoryIndex): CategoryComposites {
  let composites = built.get(entry);
  if (composites === undefined) {
    composites = buildComposites(entry);
    built.set(entry, composites);
  }
  return composites;
}

function buildComposites(entry: CategoryIndex): CategoryComposites {
  const between = new Map<string, Map<string, Morphism[]>>();
  const declared = new Map<string, Map<string, Morphism>>();
  const problems: DeclarationProblem[] = [];
  for (const morphism of entry.category.morphisms) {
    let fromSource = between.get(morphism.source);
    if (fromSource === undefined) between.set(morphism.source, (fromSource = new Map()));
    const list = fromSource.get(morphism.target);
    if (list === undefined) fromSource.set(morphism.target, [morphism]);
    else list.push(morphism);
  }
  for (const morphism of entry.category.morphisms) {
    const path = morphism.composite;
    if (path === undefined) continue;
    const problem = declarationProblem(entry, morphism, path);
    if (problem !== undefined) {
      problems.push(problem);
      continue;
    }
    if (path.length !== 2) continue;
    const [f, g] = path.map((id) => entry.morphisms.get(id) as Morphism) as [Morphism, Morphism];
    let afterF = declared.get(f.id);
    if (afterF === undefined) declared.set(f.id, (afterF = new Map()));
    const first = afterF.get(g.id);
    if (first === undefined) afterF.set(g.id, morphism);
    else if (first.id !== morphism.id) {
      problems.push({
        code: "COMPOSITE_CONFLICT",
        message: `Morphisms '${first.id}' and '${morphism.id}' both declare composite: [${f.id}, ${g.id}] (${g.id}∘${f.id} is one arrow); keep it on one of them`,
        morphismId: morphism.id,
        morphismIds: [first.id, morphism.id],
      });
    }
  }
  return { declared, between, problems };
}

function declarationProblem(entry: CategoryIndex, morphism: Morphism, path: readonly string[]): DeclarationProblem | undefined {
  const declaration = `composite: [${path.join(", ")}]`;
  const unknown = path.filter((id) => !entry.morphisms.has(id));
  if (unknown.length > 0) {
    return {
      code: "COMPOSITE_UNKNOWN_MORPHISM",
      message: `Morphism '${morphism.id}' declares ${declaration}, but ${unknown.map((id) => `'${id}'`).join(", ")} ${unknown.length === 1 ? "is not a morphism" : "are not morphisms"} of category '${entry.category.id}'`,
      morphismId: morphism.id,
      morphismIds: [...path],
    };
  }
  const arrows = path.map((id) => entry.morphisms.get(id) as Morphism);
  for (let i = 1; i < arrows.length; i += 1) {
    const before = arrows[i - 1] as Morphism;
    const after = arrows[i] as Morphism;
    if (before.target !== after.source) {
      return {
        code: "COMPOSITE_NOT_COMPOSABLE",
        message: `Morphism '${morphism.id}' declares ${declaration}, but '${before.id}' ends at '${before.target}' and '${after.id}' starts at '${after.source}'`,
        morphismId: morphism.id,
        morphismIds: [...path],
      };
    }
  }
  const first = arrows[0] as Morphism;
  const last = arrows[arrows.length - 1] as Morphism;
  if (first.source !== morphism.source || last.target !== morphism.target) {
    return {
      code: "COMPOSITE_ENDPOINT_MISMATCH",
      message: `Morphism '${morphism.id}' (${morphism.source} → ${morphism.target}) declares ${declaration}, which goes ${first.source} → ${last.target}`,
      morphismId: morphism.id,
      morphismIds: [...path],
    };
  }
  return undefined;
}

/** One issue per bad declaration (an invalid one settles nothing: the pair resolves as if undeclared). */
export function checkCompositeDeclarations(entry: CategoryIndex, out: IssueCollector): void {
  const categoryId = entry.category.id;
  for (const problem of compositesOf(entry).problems) {
    out.add(problem.code, problem.message, { categoryId, morphismId: problem.morphismId, morphismIds: problem.morphismIds });
  }
}

/** g∘f for a composable pair (f.target = g.source) of the category whose `compositesOf` this is. */
export function resolveComposite(composites: CategoryComposites, f: Morphism, g: Morphism): Composite {
  if (composites.declared.size > 0) {
    const morphism = composites.declared.get(f.id)?.get(g.id);
    if (morphism !== undefined) return morphism;
  }
  const candidates = composites.between.get(f.source)?.get(g.target);
  return candidates === undefined || candidates.length > 1 ? candidates : candidates[0];
}

/**
 * Every composable pair of non-identity arrows whose composite is settled (declared, or the only
 * arrow), flat: f, g, g∘f, f, g, g∘f, … in file order of f. Computed once per category and shared
 * by every functor from it (most pairs of a large project have no composite at all).
 */
export function settledComposites(entry: CategoryIndex): readonly Morphism[] {
  const composites = compositesOf(entry);
  if (composites.settled !== undefined) return composites.settled;
  const settled: Morphism[] = [];
  for (const f of entry.category.morphisms) {
    if (f.source === f.target || !entry.objects.has(f.source) || !entry.objects.has(f.target)) continue;
    for (const g of entry.outgoing.get(f.target) ?? []) {
      if (g.source === g.target || !entry.objects.has(g.target)) continue;
      const h = resolveComposite(composites, f, g);
      if (h !== undefined && !isAmbiguous(h)) settled.push(f, g, h);
    }
  }
  composites.settled = settled;
  return settled;
}

/** True when a resolved composite is ambiguous (several candidates). */
export function isAmbiguous(composite: Composite): composite is readonly Morphism[] {
  return Array.isArray(composite);
}

/** True when `morphism` is the identity of its object in the category (identity.ts decides which). */
export function isIdentityIn(entry: CategoryIndex, morphism: Morphism): boolean {
  return morphism.source === morphism.target && entry.identities.get(morphism.source)?.id === morphism.id;
}
