/**
 * The search that runs inside the regex worker. It must stay self-contained (no imports, no
 * outer variables): its source text is what the worker evaluates (see bounded-regex.ts).
 * Before each pattern it reports which one it starts, so a timeout can name the culprit.
 */
export interface PatternSpec {
  source: string;
  flags: string;
}

export interface PatternMatch {
  /** Index of the pattern in the request. */
  pattern: number;
  line: number;
  column: number;
  /** The matched text (cut to 200 characters). */
  match: string;
  /** The whole line (cut to 200 characters). */
  text: string;
}

export function searchPatterns(
  text: string,
  patterns: PatternSpec[],
  maxMatches: number,
  started: (index: number) => void,
): PatternMatch[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const cut = (s: string) => (s.length > 200 ? `${s.slice(0, 199)}…` : s);
  const out: PatternMatch[] = [];
  for (let p = 0; p < patterns.length; p++) {
    const spec = patterns[p];
    if (!spec) continue;
    started(p);
    const regex = new RegExp(spec.source, spec.flags);
    let found: RegExpExecArray | null;
    while ((found = regex.exec(text)) !== null && out.length < maxMatches) {
      const index = found.index;
      const line = lineOf(index);
      const lineStart = starts[line] ?? 0;
      const nextStart = starts[line + 1];
      const lineText = text.slice(lineStart, nextStart === undefined ? text.length : nextStart - 1).replace(/\r$/, "");
      out.push({ pattern: p, line: line + 1, column: index - lineStart + 1, match: cut(found[0]), text: cut(lineText) });
      if (found[0].length === 0) regex.lastIndex = index + 1;
    }
  }
  return out;
}
