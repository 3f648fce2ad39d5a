import { indentationOf } from "../analysis/code-masking.js";
import type { Language } from "../files/languages.js";

/** At most this many lines of code in an example. */
export const MAX_SNIPPET_LINES = 40;

/** Lines `startLine..endLine` (1-based, inclusive) of `text`, dedented, cut at MAX_SNIPPET_LINES with a note. */
export function snippet(text: string, startLine: number, endLine: number, language: Language, maxLines = MAX_SNIPPET_LINES): string {
  const all = text.split("\n").slice(startLine - 1, endLine);
  const cut = all.slice(0, maxLines);
  const indents = cut.filter((l) => l.trim() !== "").map(indentationOf);
  const strip = indents.length > 0 ? Math.min(...indents) : 0;
  const lines = cut.map((l) => (l.trim() === "" ? "" : stripIndent(l, strip)).trimEnd());
  if (all.length > maxLines) lines.push(`${language === "python" ? "#" : "//"} … (${all.length - maxLines} more lines)`);
  return lines.join("\n");
}

function stripIndent(line: string, width: number): string {
  let removed = 0;
  let i = 0;
  while (i < line.length && removed < width) {
    const c = line[i];
    if (c === " ") removed += 1;
    else if (c === "\t") removed += 4;
    else break;
    i += 1;
  }
  return line.slice(i);
}
