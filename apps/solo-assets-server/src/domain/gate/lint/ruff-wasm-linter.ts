/**
 * Ruff compiled to WebAssembly (`@astral-sh/ruff-wasm-nodejs`), used when the ruff binary is not
 * installed. It reports findings with their fix edits but has no fix applier, so the W/I fixes
 * are applied here: non-overlapping edits, last first, repeated until nothing fixable is left
 * (as ruff itself does). Unlike the binary it does not say whether a fix is "safe", so every
 * offered W/I fix is applied — trailing whitespace inside a multi-line string is removed too.
 * The tests then run on the fixed code, so a fix that changed behaviour cannot pass unnoticed.
 */
import type { Diagnostic as WasmDiagnostic, Workspace } from "@astral-sh/ruff-wasm-nodejs";
import type { CodeDiagnostic } from "../gate-report.js";
import { Lazy } from "../../lazy.js";
import { DEFAULT_LINE_LENGTH, LINT_SELECT, classifyFindings, hasLongLine, isAutoFixable, isSyntaxDiagnostic } from "./linter.js";
import type { LintFindings, Linter } from "./linter.js";

const MAX_FIX_PASSES = 10;

interface Edit {
  start: number;
  end: number;
  content: string;
}

/** Offsets of each line's start; rows and columns are 1-based UTF-16 positions. */
function offsetOf(lineStarts: readonly number[], length: number, row: number, column: number): number {
  const start = lineStarts[row - 1];
  if (start === undefined) return length;
  return Math.min(length, start + column - 1);
}

function lineStartsOf(code: string): number[] {
  const starts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === "\n") starts.push(i + 1);
  return starts;
}

/** Applies the fixes of the given findings that do not overlap one another. */
export function applyFixEdits(code: string, diagnostics: readonly WasmDiagnostic[]): string {
  const starts = lineStartsOf(code);
  const fixes = diagnostics
    .filter((d) => d.fix !== null && d.fix.edits.length > 0)
    .map((d) =>
      (d.fix?.edits ?? []).map<Edit>((e) => ({
        start: offsetOf(starts, code.length, e.location.row, e.location.column),
        end: offsetOf(starts, code.length, e.end_location.row, e.end_location.column),
        content: e.content ?? "",
      })),
    );
  // Take whole fixes in source order, skipping any that overlaps one already taken.
  fixes.sort((a, b) => Math.min(...a.map((e) => e.start)) - Math.min(...b.map((e) => e.start)));
  const taken: Edit[] = [];
  for (const fix of fixes) {
    const overlaps = fix.some((e) => taken.some((t) => e.start < t.end && t.start < e.end));
    if (!overlaps) taken.push(...fix);
  }
  taken.sort((a, b) => b.start - a.start);
  let out = code;
  for (const edit of taken) out = out.slice(0, edit.start) + edit.content + out.slice(edit.end);
  return out;
}

function toDiagnostic(d: WasmDiagnostic): CodeDiagnostic {
  return {
    code: isSyntaxDiagnostic(d.code) ? "invalid-syntax" : (d.code as string),
    message: d.message,
    line: d.start_location.row,
    column: d.start_location.column,
  };
}

export class RuffWasmLinter implements Linter {
  readonly kind = "ruff-wasm";
  private readonly workspace = new Lazy(async () => {
    const ruff = await import("@astral-sh/ruff-wasm-nodejs");
    const workspace: Workspace = new ruff.Workspace(
      { "line-length": this.lineLength, lint: { select: [...LINT_SELECT] } },
      ruff.PositionEncoding.Utf16,
    );
    return { workspace, version: `ruff-wasm ${ruff.Workspace.version()} (in-process)` };
  });

  constructor(private readonly lineLength: number = DEFAULT_LINE_LENGTH) {}

  async lint(code: string, signal: AbortSignal): Promise<LintFindings> {
    const { workspace, version } = await this.workspace.get();
    const check = (source: string) => workspace.check(source) as WasmDiagnostic[];
    const first = check(code);
    let fixedCode = code;
    let current = first;
    if (hasLongLine(first.map(toDiagnostic))) {
      let formatted: string | undefined;
      try {
        formatted = workspace.format(code);
      } catch {
        formatted = undefined; // a syntax error: the check reports it
      }
      if (formatted !== undefined && formatted.length > 0 && formatted !== code) {
        fixedCode = formatted;
        current = check(fixedCode);
      }
    }
    const reformatted = fixedCode !== code;
    for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
      if (signal.aborted) throw signal.reason;
      const fixable = current.filter((d) => d.code !== null && isAutoFixable(d.code) && d.fix !== null);
      if (fixable.length === 0) break;
      const next = applyFixEdits(fixedCode, fixable);
      if (next === fixedCode) break;
      fixedCode = next;
      current = check(fixedCode);
    }
    return { ...classifyFindings(version, fixedCode, first.map(toDiagnostic), current.map(toDiagnostic)), reformatted };
  }
}
