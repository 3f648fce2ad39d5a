import type { Catalog } from "../catalog/catalog-schema.js";
import type { CatalogSearch, ScoredEntry } from "./catalog-search.js";

/** Catalog entries put into a question's prompt at most; fewer when the prompt would not fit. */
export const GROUNDING_ENTRIES = 4;
/** At most this many of one kind (pattern, convention, example), so a question sees more than one view. */
const PER_KIND = 2;

/** The best entries with a positive score, at most PER_KIND of each kind, best first. */
export function chooseGrounding(scored: readonly ScoredEntry[]): ScoredEntry[] {
  const chosen: ScoredEntry[] = [];
  const perKind = new Map<string, number>();
  for (const s of scored) {
    if (s.score <= 0 || chosen.length >= GROUNDING_ENTRIES) continue;
    const n = perKind.get(s.entry.kind) ?? 0;
    if (n >= PER_KIND) continue;
    perKind.set(s.entry.kind, n + 1);
    chosen.push(s);
  }
  return chosen;
}

/**
 * The catalog entries a question is grounded in: what domain_query puts in its prompt, and what
 * mochi train puts in the prompt of each question sample, so the model is trained on the text it
 * is served (none without a catalog).
 */
export async function groundingFor(
  search: CatalogSearch,
  catalog: Catalog | undefined,
  question: { instruction: string; input: string },
  signal?: AbortSignal,
): Promise<ScoredEntry[]> {
  if (!catalog) return [];
  const retrieved = await search.search(catalog, `${question.instruction}\n${question.input}`, { limit: 4 * GROUNDING_ENTRIES, signal });
  return chooseGrounding(retrieved);
}
