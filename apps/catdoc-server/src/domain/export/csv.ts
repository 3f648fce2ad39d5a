/**
 * The CSV export: one row per (functor, source object) with its image, coverage status and
 * suspicion, RFC 4180 (csv-stringify: CRLF line ends, a field quoted when it holds a comma, a
 * quote or a line break, quotes doubled). A cell that a spreadsheet would read as a formula
 * (starting with = + - @, or a tab or carriage return before one) gets a leading ' so it stays text.
 */
import { stringify } from "csv-stringify/sync";
import type { TraceabilityModel } from "./traceability.js";

export const CSV_COLUMNS = [
  "functor",
  "source_category",
  "target_category",
  "object_id",
  "object_title",
  "image_id",
  "image_title",
  "status",
  "suspect",
  "suspect_links",
  "arrows",
] as const;

/** A cell a spreadsheet keeps as text: `=1+1` becomes `'=1+1`. */
export function neutralizeFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

export function renderCsv(model: TraceabilityModel): string {
  const records: string[][] = [[...CSV_COLUMNS]];
  for (const f of model.functors) {
    for (const r of f.rows) {
      const arrows = r.arrows.map((a) => `${a.morphismId}->${a.image ?? "(not mapped)"}${a.collapsed ? " (identity)" : ""}`).join("; ");
      const cells = [
        f.id,
        f.sourceCategory,
        f.targetCategory,
        r.objectId,
        r.title,
        r.image ?? "",
        r.imageTitle ?? "",
        r.status,
        r.suspect ? "yes" : "no",
        r.suspectLinks.join(" "),
        arrows,
      ];
      records.push(cells.map(neutralizeFormula));
    }
  }
  // Line breaks inside a cell are quoted too (csv-stringify quotes only its own record delimiter by itself).
  return stringify(records, { record_delimiter: "windows", quoted_match: /[\r\n]/ });
}
