/**
 * Terminal text: the columns a string takes (CJK and emoji take two, combining marks none) and
 * the removal of control characters, so text from a project (titles, messages) can neither
 * break a table nor send escape sequences to the terminal.
 */

const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufeff]/u;
// C0 and C1 controls (tab and newline included: table cells are one line).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

function isWide(codePoint: number): boolean {
  for (const [from, to] of WIDE) {
    if (codePoint < from) return false;
    if (codePoint <= to) return true;
  }
  return false;
}

/** Printable ASCII only: no control character, one column per character. */
export const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

/** Columns `text` takes in a terminal. */
export function displayWidth(text: string): number {
  // Most cells (ids, codes, messages) are plain ASCII: one test instead of one per character.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  // By index, not `for…of`: no one-character string per character (tables of tens of thousands of rows).
  for (let i = 0; i < text.length; i += 1) {
    const codePoint = text.codePointAt(i) ?? 0;
    if (codePoint > 0xffff) i += 1;
    // Below U+0300 (the first combining mark) nothing is zero-width or wide.
    if (codePoint < 0x300) width += 1;
    else if (!ZERO_WIDTH.test(String.fromCodePoint(codePoint))) width += isWide(codePoint) ? 2 : 1;
  }
  return width;
}

/** Control characters (newlines, tabs, escapes) become single spaces. */
export function oneLine(text: string): string {
  return text.replace(CONTROL, " ");
}

/** Multi-line text with control characters other than newline removed. */
export function safeText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, " ");
}

export function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
