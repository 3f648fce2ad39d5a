/**
 * The gate's check of a model-judged `local_verify` verdict against the file it judged
 * (answer-gate.ts): evidence is `line N: <code>` or `not found`; a cited line must exist and hold
 * the quoted code (whitespace and a trailing `…` aside, the quote may run on over the next two
 * lines); a pass needs a cited line; a fail needs a reason. What it cannot check is whether the
 * cited line really shows the requirement is met.
 */
import { tooShort, type AnswerCheck } from "../model/answer-gate.js";
import { snippet, splitLines } from "../text/lines.js";

export interface ModelVerdict {
  status: "pass" | "fail";
  evidence: string;
  reason: string | null;
}

/** `line 12: code`, `Line 12 - code`, `lines 12-14: code`. */
const CITATION = /^lines?\s+(\d+)(?:\s*[-–]\s*\d+)?\s*[:,–-]?\s*([\s\S]*)$/i;
const NOT_FOUND = /^not found\.?$/i;
/** Quotes longer than this are compared by their start. */
const QUOTE_CHARS = 80;

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** The quoted code without wrapping quotes or backticks and without a trailing ellipsis. */
function quoted(text: string): string {
  let q = squash(text).replace(/^[`'"]+|[`'"]+$/g, "");
  const cut = q.search(/…|\.\.\./);
  if (cut >= 0) q = q.slice(0, cut);
  return q.trim().slice(0, QUOTE_CHARS);
}

/** The line a verdict cites, when its evidence is a valid citation of `text`. */
export function citedLine(evidence: string): number | undefined {
  const match = CITATION.exec(evidence.trim());
  return match ? Number(match[1]) : undefined;
}

export function verdictCheck(path: string, text: string): AnswerCheck<ModelVerdict> {
  const lines = splitLines(text);
  const count = text.endsWith("\n") ? lines.length - 1 : lines.length;
  return (verdict) => {
    const evidence = verdict.evidence.trim();
    if (evidence.length === 0) return 'the evidence is empty: cite "line N: <code>" from the file, or say "not found"';
    if (verdict.status === "fail" && tooShort(verdict.reason, 3)) return "a failing check needs a reason saying why it fails";
    if (NOT_FOUND.test(evidence)) {
      return verdict.status === "pass" ? 'a passing check needs evidence from the file ("line N: <code>"), not "not found"' : undefined;
    }
    const match = CITATION.exec(evidence);
    if (!match) return `the evidence "${snippet(evidence, 60)}" is neither "line N: <code>" nor "not found"`;
    const line = Number(match[1]);
    if (line < 1 || line > count) return `line ${line} does not exist: ${path} has ${count} lines`;
    const quote = quoted(match[2] ?? "");
    if (quote.length === 0) {
      return verdict.status === "pass"
        ? `the evidence cites line ${line} without its code: write "line ${line}: <the code on it>"`
        : undefined;
    }
    const window = squash(lines.slice(line - 1, line + 2).join("\n"));
    if (window.includes(quote)) return undefined;
    return `line ${line} of ${path} reads "${snippet(lines[line - 1] ?? "", 80)}", not "${snippet(quote, 80)}": quote the code on the line you cite`;
  };
}
