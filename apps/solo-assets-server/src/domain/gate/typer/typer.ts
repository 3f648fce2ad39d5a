/**
 * The gate's second step: a static type check of the (lint-fixed) code. Any error rejects it.
 * mypy with --ignore-missing-imports when installed, else pyright from npm configured the same
 * way (missing imports are not errors: the function's dependencies are not installed here).
 */
import type { CodeDiagnostic } from "../gate-report.js";

export interface TypeFindings {
  tool: string;
  errors: CodeDiagnostic[];
}

export interface Typer {
  /** "mypy" or "pyright". */
  readonly kind: string;
  /** Checks `function.py` in `dir` (a fresh temporary folder holding only that file). */
  check(dir: string, signal: AbortSignal): Promise<TypeFindings>;
}
