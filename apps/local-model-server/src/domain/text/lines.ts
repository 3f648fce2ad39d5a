/** Line arithmetic shared by the engines: 1-based line numbers and short evidence snippets. */

/** Offsets where each line starts (line 1 starts at 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** The 1-based line holding `offset`. */
export function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

export const SNIPPET_CHARS = 120;

/** A line trimmed and cut to `max` characters, for evidence such as `line 12: export const x`. */
export function snippet(line: string, max = SNIPPET_CHARS): string {
  const trimmed = line.trim().replace(/\s+/g, " ");
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Lines of a text, not counting the empty piece after a final newline. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const parts = text.split(/\r?\n/).length;
  return text.endsWith("\n") ? parts - 1 : parts;
}
