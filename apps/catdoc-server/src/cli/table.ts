/** Plain-text tables for the terminal: aligned columns, two spaces apart, no trailing padding. */
import { PRINTABLE_ASCII, displayWidth, oneLine } from "./text-width.js";

/**
 * The table as text, one line per row. Built in one pass over the cells, each cleaned and measured
 * once: a validation of a large project prints tens of thousands of rows.
 */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const columns = headers.length;
  const last = columns - 1;
  const cells: string[] = [];
  const cellWidths: number[] = [];
  const widths = headers.map((header) => displayWidth(header));
  const measure = (row: readonly string[]) => {
    for (let i = 0; i < columns; i += 1) {
      const raw = row[i] ?? "";
      // Printable ASCII (nearly every cell) is clean and one column a character as it is.
      const plain = PRINTABLE_ASCII.test(raw);
      const cell = plain ? raw : oneLine(raw);
      // The last column is never padded: its width is not needed (it is the long one: messages).
      const width = plain ? cell.length : i === last ? 0 : displayWidth(cell);
      cells.push(cell);
      cellWidths.push(width);
      if (width > (widths[i] ?? 0)) widths[i] = width;
    }
  };
  measure(headers);
  for (const row of rows) measure(row);
  const spaces: string[] = [];
  const pad = (count: number) => (spaces[count] ??= " ".repeat(count));
  // Lines joined once at the end: one flat string, not a rope of tens of thousands of pieces that
  // every later read (endsWith, the write to stdout) would flatten again.
  const lines: string[] = [];
  for (let start = 0; start < cells.length; start += columns) {
    let line = "";
    for (let i = 0; i < last; i += 1) {
      line += `${cells[start + i] ?? ""}${pad(Math.max(0, (widths[i] ?? 0) - (cellWidths[start + i] ?? 0)))}  `;
    }
    const end = cells[start + last] ?? "";
    line += end;
    // No trailing padding: only a line whose last cell is empty or ends in a space has any.
    lines.push(end === "" || end.endsWith(" ") ? line.trimEnd() : line);
  }
  lines.push("");
  return lines.join("\n");
}
