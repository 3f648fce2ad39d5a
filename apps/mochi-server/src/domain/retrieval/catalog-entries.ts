import type { Catalog } from "../catalog/catalog-schema.js";

export type CatalogEntryKind = "pattern" | "convention" | "example";

/** One catalog entry as retrieval sees it. */
export interface CatalogEntry {
  kind: CatalogEntryKind;
  /** Pattern or convention name, or example id. */
  name: string;
  title: string;
  /** What is embedded. */
  text: string;
  /** What a prompt gets: a compact rendering of the entry. */
  brief: string;
}

const BRIEF_CODE_LINES = 15;

function firstLines(text: string, n: number): string {
  const lines = text.split("\n");
  return lines.length <= n ? text : `${lines.slice(0, n).join("\n")}\n…`;
}

/** Every pattern, convention and example of a catalog, in catalog order. */
export function catalogEntries(catalog: Catalog): CatalogEntry[] {
  const examples = new Map(catalog.examples.map((e) => [e.id, e]));
  const entries: CatalogEntry[] = [];
  for (const p of catalog.patterns) {
    const example = examples.get(p.example);
    const symbols = [...new Set(p.locations.map((l) => l.symbol))].slice(0, 12).join(" ");
    entries.push({
      kind: "pattern",
      name: p.name,
      title: p.title,
      text: `${p.title}. ${p.name.replace(/-/g, " ")}. ${p.description} ${symbols}\n${example?.code.slice(0, 1_000) ?? ""}`,
      brief: `Pattern "${p.title}" (${p.name}): ${p.description}${example ? `\nExample from ${example.file}:\n${firstLines(example.code, BRIEF_CODE_LINES)}` : ""}`,
    });
  }
  for (const c of catalog.conventions) {
    entries.push({
      kind: "convention",
      name: c.name,
      title: c.title,
      text: `${c.title}. ${c.summary} ${c.rules.join(". ")}`,
      brief: `Convention "${c.title}": ${c.summary}\n${c.rules
        .slice(0, 6)
        .map((r) => `- ${r}`)
        .join("\n")}`,
    });
  }
  for (const e of catalog.examples) {
    entries.push({
      kind: "example",
      name: e.id,
      title: `${e.symbol} (${e.file})`,
      text: `${e.symbol} ${e.file} ${e.shows.join(" ")} ${e.doc ?? ""}\n${e.code.slice(0, 1_500)}`,
      brief: `Example \`${e.symbol}\` in ${e.file}${e.doc ? ` — ${e.doc.split("\n")[0]}` : ""}:\n${firstLines(e.code, BRIEF_CODE_LINES)}`,
    });
  }
  return entries;
}
