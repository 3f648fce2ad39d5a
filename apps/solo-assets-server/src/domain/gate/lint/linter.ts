/**
 * The gate's first step: Ruff with the rule families E, F, W and I. E and F findings (and
 * syntax errors) reject the code; W and I findings are fixed automatically and the fixed code
 * is what gets typed, tested and stored. A line over the limit (E501; SOLO_LINE_LENGTH, default
 * 88) first makes the gate run `ruff format` at that limit and check the formatted code: only
 * what the formatter cannot shorten (a long string or comment) rejects. Code within the limit is
 * never reformatted. Two implementations give the same findings: the ruff binary when installed,
 * else Ruff compiled to WebAssembly in process.
 */
import type { CodeDiagnostic } from "../gate-report.js";

export const LINT_SELECT = ["E", "F", "W", "I"] as const;
/** Rule families fixed automatically. */
export const AUTO_FIX_FAMILIES = ["W", "I"] as const;

export interface LintFindings {
  tool: string;
  /** The code after the W/I fixes (the submitted code when nothing was fixed). */
  fixedCode: string;
  /** E/F findings and syntax errors in the fixed code. */
  errors: CodeDiagnostic[];
  /** W/I findings of the submitted code that the fixes removed. */
  fixed: CodeDiagnostic[];
  /** W/I findings still present after fixing. */
  unfixed: CodeDiagnostic[];
  syntaxError: boolean;
  /** True when `ruff format` rewrote the code because a line was over the limit. */
  reformatted?: boolean;
}

/** Ruff's default, and the gate's unless SOLO_LINE_LENGTH says otherwise. */
export const DEFAULT_LINE_LENGTH = 88;

/** A line over the limit: the gate formats the code with `ruff format` and checks it again. */
export function hasLongLine(diagnostics: readonly CodeDiagnostic[]): boolean {
  return diagnostics.some((d) => d.code === "E501");
}

export interface Linter {
  /** "ruff" or "ruff-wasm". */
  readonly kind: string;
  lint(code: string, signal: AbortSignal): Promise<LintFindings>;
}

/** Ruff names syntax errors "invalid-syntax" (older releases: no code, or E999). */
export function isSyntaxDiagnostic(code: string | null | undefined): boolean {
  return code === null || code === undefined || code === "" || code === "invalid-syntax" || code === "E999";
}

export function isAutoFixable(code: string): boolean {
  return AUTO_FIX_FAMILIES.some((family) => code.startsWith(family));
}

/** Splits the final findings and works out which of the original W/I findings were fixed. */
export function classifyFindings(
  tool: string,
  fixedCode: string,
  before: readonly CodeDiagnostic[],
  after: readonly CodeDiagnostic[],
): LintFindings {
  const errors = after.filter((d) => !isAutoFixable(d.code));
  const unfixed = after.filter((d) => isAutoFixable(d.code));
  const remaining = new Map<string, number>();
  for (const d of unfixed) remaining.set(d.code, (remaining.get(d.code) ?? 0) + 1);
  const fixed: CodeDiagnostic[] = [];
  for (const d of before.filter((x) => isAutoFixable(x.code))) {
    const left = remaining.get(d.code) ?? 0;
    if (left > 0) remaining.set(d.code, left - 1);
    else fixed.push(d);
  }
  return { tool, fixedCode, errors, fixed, unfixed, syntaxError: errors.some((d) => d.code === "invalid-syntax") };
}
