/** Plain-text tables for the terminal: aligned columns, two spaces apart, no trailing padding. */
import { displayWidth, oneLine, padEnd } from "./text-width.js";

export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const clean = rows.map((row) => headers.map((_, i) => oneLine(row[i] ?? "")));
  // A loop, not Math.max(...cells): tens of thousands of rows (a validation's warnings) would overflow the call stack.
  const widths = headers.map((header, i) =>
    clean.reduce((widest, row) => Math.max(widest, displayWidth(row[i] ?? "")), displayWidth(header)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : padEnd(cell, widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...clean.map(line)].map((text) => `${text}\n`).join("");
}
