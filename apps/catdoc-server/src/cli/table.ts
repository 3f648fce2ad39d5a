/** Plain-text tables for the terminal: aligned columns, two spaces apart, no trailing padding. */
import { displayWidth, oneLine, padEnd } from "./text-width.js";

export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const clean = rows.map((row) => headers.map((_, i) => oneLine(row[i] ?? "")));
  const widths = headers.map((header, i) => Math.max(displayWidth(header), ...clean.map((row) => displayWidth(row[i] ?? ""))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : padEnd(cell, widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...clean.map(line)].map((text) => `${text}\n`).join("");
}
