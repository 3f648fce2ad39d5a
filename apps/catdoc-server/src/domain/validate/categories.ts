/**
 * Checks of one category: duplicate ids, identities, endpoints and composition closure.
 *
 * Composition is exact (composites.ts): for every composable pair of non-identity arrows
 * f: A → B, g: B → C, g∘f is the morphism declaring `composite: [f, g]`, else the only arrow
 * A → C. Several parallel arrows A → C and no declaration is AMBIGUOUS_COMPOSITION; no arrow at
 * all is MISSING_COMPOSITION (a warning, as in the original tool). Endomorphisms f or g are
 * skipped: composing with one lands on an arrow that already exists (f itself, or g).
 *
 * EMPTY_CATEGORY is a category without objects (the original warned when it had neither
 * objects nor morphisms and then skipped it; morphisms without objects are UNDEFINED_ENDPOINT
 * errors here). Object and morphism ids are unique across the project, since tools and
 * resources address them by id alone; DUPLICATE_ID is reported on every repeated definition.
 */
import { identityIdFor } from "../identity.js";
import type { Morphism } from "../model.js";
import type { CategoryIndex, Occurrence, ProjectIndex } from "../project-index.js";
import { checkCompositeDeclarations, compositesOf, isAmbiguous, resolveComposite } from "./composites.js";
import type { Composite } from "./composites.js";
import type { IssueCollector } from "./issues.js";

export function checkCategory(index: ProjectIndex, entry: CategoryIndex, out: IssueCollector): void {
  const { category } = entry;
  const categoryId = category.id;

  const first = index.categories.get(categoryId);
  if (first !== undefined && first.position !== entry.position) {
    out.add(
      "DUPLICATE_ID",
      `Category id '${categoryId}' is defined more than once (categories[${first.position}] and categories[${entry.position}])`,
      { categoryId },
    );
  }
  reportDuplicates("Object", category.objects, index.objectOccurrences, entry, out, (id) => ({ categoryId, objectId: id }));
  reportDuplicates("Morphism", category.morphisms, index.morphismOccurrences, entry, out, (id) => ({ categoryId, morphismId: id }));

  if (category.objects.length === 0) {
    out.add("EMPTY_CATEGORY", `Category '${categoryId}' is empty (it has no objects)`, { categoryId });
  }

  for (const objectId of entry.objects.keys()) {
    if (!entry.identities.has(objectId)) {
      out.add(
        "MISSING_IDENTITY",
        `Object '${objectId}' lacks an identity morphism (an endomorphism ${objectId} → ${objectId} marked metadata.isIdentity: true, or one with id '${identityIdFor(objectId)}')`,
        { categoryId, objectId },
      );
    }
  }

  for (const morphism of category.morphisms) {
    for (const end of ["source", "target"] as const) {
      const objectId = morphism[end];
      if (!entry.objects.has(objectId)) {
        out.add(
          "UNDEFINED_ENDPOINT",
          `Morphism '${morphism.id}' has undefined ${end} object '${objectId}' (not an object of category '${categoryId}')`,
          { categoryId, morphismId: morphism.id, objectId },
        );
      }
    }
  }

  checkCompositions(entry, out);
}

/**
 * Every composable pair of non-identity arrows, resolved as in composites.ts. A missing arrow
 * A → C is one violation however many pairs need it: one MISSING_COMPOSITION per (A, C), naming
 * every such pair (`pairs` when there are several). An ambiguous pair needs its own declaration:
 * one AMBIGUOUS_COMPOSITION per pair, naming the candidates.
 */
function checkCompositions(entry: CategoryIndex, out: IssueCollector): void {
  const categoryId = entry.category.id;
  checkCompositeDeclarations(entry, out);
  // Missing arrows by A, then C (nested maps: no key string per pair), in first-seen order; a
  // group holds its first pair and, only when there are more, the others (flat: f, g, f, g, …).
  const missing = new Map<string, Map<string, MissingGroup>>();
  const groups: MissingGroup[] = [];
  const composites = compositesOf(entry);
  const declaring = composites.declared.size > 0;
  // The settled pairs, kept for the functors from this category (composites.ts, settledComposites).
  const settled: Morphism[] | undefined = composites.settled === undefined ? [] : undefined;
  for (const f of entry.category.morphisms) {
    if (f.source === f.target || !entry.objects.has(f.source) || !entry.objects.has(f.target)) continue;
    const next = entry.outgoing.get(f.target);
    if (next === undefined) continue;
    let fromA: Map<string, MissingGroup> | undefined;
    // Without declarations, g∘f is read straight off the arrows from A (one lookup per pair).
    const arrowsFromA = declaring ? undefined : composites.between.get(f.source);
    for (const g of next) {
      if (g.source === g.target || !entry.objects.has(g.target)) continue;
      let composite: Composite;
      if (declaring) composite = resolveComposite(composites, f, g);
      else {
        const candidates = arrowsFromA?.get(g.target);
        composite = candidates === undefined || candidates.length > 1 ? candidates : candidates[0];
      }
      if (composite === undefined) {
        fromA ??= missing.get(f.source);
        if (fromA === undefined) missing.set(f.source, (fromA = new Map()));
        const group = fromA.get(g.target);
        if (group === undefined) {
          const created: MissingGroup = { f, g, more: null };
          fromA.set(g.target, created);
          groups.push(created);
        } else (group.more ??= []).push(f, g);
      } else if (!isAmbiguous(composite)) {
        settled?.push(f, g, composite);
      } else {
        const names = composite.map((m) => `'${m.id}'`).join(", ");
        out.add(
          "AMBIGUOUS_COMPOSITION",
          `Ambiguous composition: ${g.id}∘${f.id} (${f.source} → ${g.target}) could be any of ${names}; declare composite: [${f.id}, ${g.id}] on one of them`,
          {
            categoryId,
            morphismIds: [f.id, g.id],
            objectIds: [f.source, f.target, g.target],
            candidateIds: composite.map((m) => m.id),
          },
        );
      }
    }
  }
  if (settled !== undefined) composites.settled = settled;
  for (const { f, g, more } of groups) {
    let names = `${g.id}∘${f.id}`;
    let pairs: string[][] | undefined;
    if (more !== null) {
      pairs = [[f.id, g.id]];
      for (let i = 0; i < more.length; i += 2) {
        const [a, b] = [more[i] as Morphism, more[i + 1] as Morphism];
        names += `, ${b.id}∘${a.id}`;
        pairs.push([a.id, b.id]);
      }
    }
    out.add("MISSING_COMPOSITION", `Missing composition: ${names} (${f.source} → ${g.target})`, {
      categoryId,
      morphismIds: [f.id, g.id],
      objectIds: [f.source, f.target, g.target],
      pairs,
    });
  }
}

/** The pairs f, g whose composite A → C is missing: the first, then the others when there are more. */
interface MissingGroup {
  f: Morphism;
  g: Morphism;
  more: Morphism[] | null;
}

/** One DUPLICATE_ID per repeated definition (every definition after the first in the project). */
function reportDuplicates(
  label: "Object" | "Morphism",
  items: readonly { id: string }[],
  occurrences: ReadonlyMap<string, Occurrence[]>,
  entry: CategoryIndex,
  out: IssueCollector,
  ids: (id: string) => Record<string, string>,
): void {
  items.forEach((item, itemIndex) => {
    const all = occurrences.get(item.id);
    const head = all?.[0];
    if (all === undefined || head === undefined || all.length < 2) return;
    if (head.categoryPosition === entry.position && head.itemIndex === itemIndex) return;
    const where = [...new Set(all.map((o) => o.categoryId))].join("', '");
    out.add("DUPLICATE_ID", `${label} id '${item.id}' is defined ${all.length} times (in categories '${where}')`, ids(item.id));
  });
}
