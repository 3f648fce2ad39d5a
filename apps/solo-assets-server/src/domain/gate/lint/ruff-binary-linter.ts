/**
 * Ruff as an installed binary: findings as JSON, W/I fixes by `ruff check --fix` on stdin
 * (the fixed source comes back on stdout). `--isolated` ignores any ruff config around, so every
 * machine judges the same way.
 */
import { ToolError } from "@local-mcp/core";
import type { ProbedTool } from "../../process/find-executable.js";
import { runProcess } from "../../process/run-process.js";
import type { CodeDiagnostic } from "../gate-report.js";
import {
  AUTO_FIX_FAMILIES,
  DEFAULT_LINE_LENGTH,
  LINT_SELECT,
  classifyFindings,
  hasLongLine,
  isAutoFixable,
  isSyntaxDiagnostic,
} from "./linter.js";
import type { LintFindings, Linter } from "./linter.js";

interface RuffJsonDiagnostic {
  code: string | null;
  message: string;
  location?: { row: number; column: number };
}

const BASE = ["check", "--isolated", "--no-cache", "--exit-zero", "--stdin-filename", "function.py"];

export class RuffBinaryLinter implements Linter {
  readonly kind = "ruff";

  constructor(
    private readonly ruff: ProbedTool,
    private readonly env: Readonly<Record<string, string>>,
    private readonly lineLength: number = DEFAULT_LINE_LENGTH,
  ) {}

  async lint(code: string, signal: AbortSignal): Promise<LintFindings> {
    const before = await this.check(code, signal);
    let source = code;
    let current = before;
    if (hasLongLine(before)) {
      const formatted = await this.format(code, signal);
      if (formatted !== undefined && formatted !== code) {
        source = formatted;
        current = await this.check(source, signal);
      }
    }
    const reformatted = source !== code;
    // Clean code (the usual second save) needs one ruff run, not three.
    if (!current.some((d) => isAutoFixable(d.code)))
      return { ...classifyFindings(this.ruff.version, source, before, current), reformatted };
    const fix = await this.run([...BASE, ...this.lengthArgs(), "--select", AUTO_FIX_FAMILIES.join(","), "--fix", "-"], source, signal);
    const fixedCode = fix.length > 0 || source.length === 0 ? fix : source;
    const after = fixedCode === source ? current : await this.check(fixedCode, signal);
    return { ...classifyFindings(this.ruff.version, fixedCode, before, after), reformatted };
  }

  private lengthArgs(): string[] {
    return ["--line-length", String(this.lineLength)];
  }

  /** `ruff format` at the line limit; undefined when it cannot (a syntax error: the check reports it). */
  private async format(code: string, signal: AbortSignal): Promise<string | undefined> {
    const result = await runProcess(
      this.ruff.command,
      [...this.ruff.prefix, "format", "--isolated", "--no-cache", ...this.lengthArgs(), "--stdin-filename", "function.py", "-"],
      { env: this.env, input: code, timeoutMs: 30_000, signal },
    );
    if (result.aborted) throw signal.reason;
    return result.code === 0 && result.stdout.length > 0 ? result.stdout : undefined;
  }

  private async check(code: string, signal: AbortSignal): Promise<CodeDiagnostic[]> {
    const out = await this.run(
      [...BASE, ...this.lengthArgs(), "--select", LINT_SELECT.join(","), "--output-format", "json", "-"],
      code,
      signal,
    );
    let parsed: RuffJsonDiagnostic[];
    try {
      parsed = JSON.parse(out) as RuffJsonDiagnostic[];
    } catch {
      throw new ToolError("INTERNAL", `ruff printed something that is not its JSON output: ${out.slice(0, 200)}`);
    }
    return parsed.map((d) => ({
      code: isSyntaxDiagnostic(d.code) ? "invalid-syntax" : (d.code as string),
      message: d.message,
      line: d.location?.row ?? 0,
      column: d.location?.column ?? 0,
    }));
  }

  private async run(args: string[], input: string, signal: AbortSignal): Promise<string> {
    const result = await runProcess(this.ruff.command, [...this.ruff.prefix, ...args], {
      env: this.env,
      input,
      timeoutMs: 30_000,
      signal,
    });
    if (result.aborted) throw signal.reason;
    if (result.code !== 0) {
      throw new ToolError("INTERNAL", `ruff failed (exit ${String(result.code)}): ${(result.spawnError ?? result.stderr).slice(0, 500)}`);
    }
    return result.stdout;
  }
}
