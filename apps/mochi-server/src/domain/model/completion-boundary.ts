import { indentationOf } from "../analysis/code-masking.js";

/** Why a completion ends where it does. */
export type BoundaryReason = "suffix" | "line-end" | "block-end" | "blank-line" | "dedent" | "none";

export interface BoundaryContext {
  prefix: string;
  suffix: string;
  language?: string | undefined;
}

export interface Boundary {
  text: string;
  reason: BoundaryReason;
}

const INDENT_LANGUAGES = new Set(["python", "py", "yaml", "yml", "coffeescript", "nim"]);

/** Indentation-structured code: by the language, or a Python-looking prefix when none is given. */
export function usesIndentation(language: string | undefined, prefix: string): boolean {
  if (language !== undefined && language.trim() !== "") return INDENT_LANGUAGES.has(language.trim().toLowerCase());
  return /^\s*(?:def|class)\s+\w+.*:\s*$/m.test(prefix);
}

/**
 * Cuts generated code at a sensible boundary, the earliest of:
 * - suffix: a line that starts like the suffix's first line (3+ characters), which the model is
 *   repeating;
 * - line-end: the cursor is mid-line and the line does not open a block — complete that line;
 *   when it opens one (`{`, `(`, `=>`, or `:` in Python), complete the block (block-end / dedent);
 * - block-end: a bracket that closes a block opened before the cursor (kept when the suffix is
 *   empty, left to the suffix otherwise);
 * - blank-line: an empty line after some code, outside brackets;
 * - dedent (indentation languages): a line indented less than the cursor's line.
 * The result has no trailing whitespace.
 */
export function cutAtBoundary(generated: string, context: BoundaryContext): Boundary {
  const indentBased = usesIndentation(context.language, context.prefix);
  const cursorLine = context.prefix.slice(context.prefix.lastIndexOf("\n") + 1);
  const midLine = cursorLine.trim() !== "";
  const cursorIndent = indentationOf(cursorLine);
  const suffixBlank = context.suffix.trim() === "";
  let cut = generated.length;
  let reason: BoundaryReason = "none";
  const consider = (index: number, why: BoundaryReason) => {
    if (index < cut) {
      cut = index;
      reason = why;
    }
  };

  const anchor = context.suffix
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (anchor !== undefined && anchor.length >= 3) {
    let lineStart = 0;
    while (lineStart <= generated.length) {
      if (lineStart > 0 && generated.slice(lineStart).trimStart().startsWith(anchor)) {
        consider(lineStart, "suffix");
        break;
      }
      const next = generated.indexOf("\n", lineStart);
      if (next < 0) break;
      lineStart = next + 1;
    }
  }

  let depth = 0;
  let blockOpened = false;
  let blockIndent: number | undefined;
  let sawCode = false;
  let lineStart = 0;
  for (let i = 0; i < generated.length && i < cut; i++) {
    const c = generated[i] as string;
    if (!indentBased && "([{".includes(c)) depth += 1;
    else if (!indentBased && ")]}".includes(c)) {
      depth -= 1;
      if (depth < 0) {
        consider(suffixBlank ? i + 1 : i, "block-end");
        break;
      }
    }
    if (c !== "\n") continue;
    const line = generated.slice(lineStart, i);
    const first = lineStart === 0;
    if (first && midLine) {
      const whole = `${cursorLine}${line}`.trim();
      const opens = indentBased ? /:\s*$/.test(whole) : depth > 0 || /=>\s*$/.test(whole);
      if (!opens) {
        consider(i, "line-end");
        break;
      }
      blockOpened = true;
      if (indentBased) blockIndent = cursorIndent;
    } else if (line.trim() === "") {
      if (sawCode && depth <= 0) {
        consider(lineStart, "blank-line");
        break;
      }
    } else if (indentBased) {
      const indent = indentationOf(line);
      if (blockIndent !== undefined ? indent <= blockIndent : !first && indent < cursorIndent) {
        consider(lineStart, "dedent");
        break;
      }
    } else if (blockOpened && depth <= 0) {
      consider(i, "block-end");
      break;
    }
    sawCode ||= line.trim() !== "";
    lineStart = i + 1;
  }
  return { text: generated.slice(0, cut).trimEnd(), reason };
}
