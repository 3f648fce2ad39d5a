/** How comments and string literals look in a language, for masking them out. */
export interface MaskRules {
  lineComments: readonly string[];
  blockComment?: readonly [string, string];
  /** Delimiters of strings that may span lines (`"""`, backticks); checked before `quotes`. */
  multilineQuotes: readonly string[];
  /** Delimiters of strings that end at the line's end at the latest. */
  quotes: readonly string[];
  /** `'x'` is a character literal only when it closes within a few characters (Rust lifetimes `'a` stay code). */
  shortCharQuote: boolean;
}

/**
 * The text with every comment and the inside of every string literal replaced by spaces, newlines
 * kept: the same length and line structure, so a regular expression on a masked line sees only
 * code and its line number is the original's. String delimiters stay, so `"""` still shows.
 */
export function maskCode(text: string, rules: MaskRules): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to && i < out.length; i++) if (out[i] !== "\n") out[i] = " ";
  };
  let i = 0;
  while (i < text.length) {
    const lineComment = rules.lineComments.find((c) => text.startsWith(c, i));
    if (lineComment !== undefined) {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (rules.blockComment && text.startsWith(rules.blockComment[0], i)) {
      const end = text.indexOf(rules.blockComment[1], i + rules.blockComment[0].length);
      const stop = end < 0 ? text.length : end + rules.blockComment[1].length;
      blank(i, stop);
      i = stop;
      continue;
    }
    const multiline = rules.multilineQuotes.find((q) => text.startsWith(q, i));
    if (multiline !== undefined) {
      const stop = closing(text, i + multiline.length, multiline, true);
      blank(i + multiline.length, stop);
      i = Math.min(text.length, stop + multiline.length);
      continue;
    }
    const quote = rules.quotes.find((q) => text.startsWith(q, i));
    if (quote !== undefined) {
      const stop = closing(text, i + 1, quote, false);
      blank(i + 1, stop);
      i = Math.min(text.length, stop + 1);
      continue;
    }
    if (rules.shortCharQuote && text[i] === "'") {
      const match = /^'(?:\\.[^']{0,6}|[^\\'\n])'/.exec(text.slice(i, i + 10));
      if (match) {
        blank(i + 1, i + match[0].length - 1);
        i += match[0].length;
        continue;
      }
    }
    i += 1;
  }
  return out.join("");
}

/** Index of the closing delimiter (escapes honoured); a single-line string also ends at a newline. */
function closing(text: string, from: number, delimiter: string, multiline: boolean): number {
  for (let j = from; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") {
      j += 1;
      continue;
    }
    if (!multiline && c === "\n") return j;
    if (text.startsWith(delimiter, j)) return j;
  }
  return text.length;
}

export function indentationOf(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === " ") n += 1;
    else if (c === "\t") n += 4;
    else break;
  }
  return n;
}
