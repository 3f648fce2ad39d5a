import type { CatalogEntryKind } from "../domain/retrieval/catalog-entries.js";

export const STATS_URI = "mochi://stats";
export const PATTERNS_TEMPLATE = "mochi://patterns/{name}";
export const CONVENTIONS_TEMPLATE = "mochi://conventions/{name}";
export const EXAMPLES_TEMPLATE = "mochi://examples/{id}";

/** The resource URI of a catalog entry. */
export function entryUri(kind: CatalogEntryKind, name: string): string {
  const collection = kind === "pattern" ? "patterns" : kind === "convention" ? "conventions" : "examples";
  return `mochi://${collection}/${encodeURIComponent(name)}`;
}

/** Completion candidates: names starting with `value` first, then names containing it, each in catalog order. */
export function completeNames(names: readonly string[], value: string): string[] {
  const needle = value.toLowerCase();
  const starts = names.filter((n) => n.toLowerCase().startsWith(needle));
  const contains = names.filter((n) => !n.toLowerCase().startsWith(needle) && n.toLowerCase().includes(needle));
  return [...starts, ...contains];
}
