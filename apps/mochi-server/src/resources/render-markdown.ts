import type { Catalog, Convention, Example, Pattern } from "../domain/catalog/catalog-schema.js";
import { fenceTag } from "../domain/files/languages.js";
import { entryUri } from "./mochi-uris.js";

/** The header every catalog resource starts with: its catalog version, so a re-index shows. */
function header(title: string, catalog: Catalog): string[] {
  return [`# ${title}`, "", `<!-- catalog ${catalog.version} -->`, ""];
}

export function renderPattern(pattern: Pattern, catalog: Catalog): string {
  const examples = new Map(catalog.examples.map((e) => [e.id, e]));
  const lines = [...header(pattern.title, catalog), pattern.description, ""];
  lines.push(
    `- name: \`${pattern.name}\``,
    `- occurrences: ${pattern.occurrences} in ${pattern.files} files`,
    `- languages: ${pattern.languages.join(", ")}`,
    "",
  );
  for (const id of pattern.examples) {
    const example = examples.get(id);
    if (!example) continue;
    lines.push(
      `## ${example.symbol} — ${example.file}:${example.startLine}`,
      "",
      `Example: ${entryUri("example", example.id)}`,
      "",
      ...codeBlock(example),
      "",
    );
  }
  lines.push("## Where", "", ...pattern.locations.map((l) => `- ${l.file}:${l.line} \`${l.symbol}\``), "");
  return lines.join("\n");
}

export function renderConvention(convention: Convention, catalog: Catalog): string {
  return [
    ...header(convention.title, catalog),
    convention.summary,
    "",
    ...convention.rules.map((r) => `- ${r}`),
    "",
    "## Details",
    "",
    "```json",
    JSON.stringify(convention.details, null, 2),
    "```",
    "",
  ].join("\n");
}

export function renderExample(example: Example, catalog: Catalog): string {
  const lines = [...header(`${example.symbol} (${example.file}:${example.startLine}-${example.endLine})`, catalog)];
  if (example.doc) lines.push(example.doc, "");
  if (example.shows.length > 0) {
    const shows = example.shows.map((s) => (s === "documented" ? "a documented declaration" : `[${s}](${entryUri("pattern", s)})`));
    lines.push(`Shows: ${shows.join(", ")}`, "");
  }
  lines.push(...codeBlock(example), "");
  return lines.join("\n");
}

function codeBlock(example: Example): string[] {
  return [`\`\`\`${fenceTag(example.language)}`, example.code, "```"];
}
