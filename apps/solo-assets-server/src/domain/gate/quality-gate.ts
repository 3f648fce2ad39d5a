/**
 * The quality gate (seed §3, "Three Guardians" plus dynamic tests), in order:
 *   1. lint  — Ruff E,F,W,I: E/F reject; W/I are fixed and the fixed code goes on;
 *   2. type  — mypy --ignore-missing-imports, else pyright: any error rejects;
 *   3. test  — the test cases in the pooled environment, sandboxed;
 *   4. critic — a language model's scores, passing at ≥ the threshold (or off).
 * A save that imports library functions (`from solo_lib import a`) is typed and tested with the
 * `solo_lib` package of its dependency closure beside it (src/domain/gate/tests/library-package.ts).
 * The first rejection stops the gate; later steps are reported as skipped. The status:
 * `broken` when a step rejected the code; `unverified` when nothing rejected it but the tests
 * did not run (skipped, none given) or a step could not judge (a tool or the critic failed);
 * `active` otherwise.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isToolError, silentLogger, toToolError } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import type { TestCase } from "../library/function-record.js";
import { missingModuleReason } from "../python/import-requirements.js";
import type { UndeclaredImport } from "../python/import-requirements.js";
import { meanScore } from "./critic/critic.js";
import type { Critic } from "./critic/critic.js";
import { formatDiagnostics } from "./gate-report.js";
import type {
  CriticReport,
  FunctionStatus,
  GateReport,
  LintReport,
  Rejection,
  StepIssue,
  StepName,
  TestReport,
  TypeReport,
  Unverified,
} from "./gate-report.js";
import type { Linter } from "./lint/linter.js";
import { writeLibraryPackage } from "./tests/library-package.js";
import type { PythonTestRunner } from "./tests/test-runner.js";
import type { Typer } from "./typer/typer.js";

export interface GateInput {
  name: string;
  description: string;
  code: string;
  dependencies: readonly string[];
  testCases: readonly TestCase[];
  skipTests: boolean;
  /** What the save's pre-gate checks found (domain/library/save-checks.ts); absent: nothing to add. */
  checks?: GateChecks;
}

/** The library functions the code imports, resolved, and what the parser flagged. */
export interface GateChecks {
  /** The names of `from solo_lib import …`, as written. */
  imports: string[];
  /** The imports and everything they import, dependencies first: the sandbox's `solo_lib` package. */
  closure: readonly { name: string; version: number; code: string; dependencies: readonly string[] }[];
  dangerous: readonly { line: number; call: string }[];
  fingerprint?: string;
  warnings: string[];
  /** Third-party imports no declared dependency provides (domain/python/import-requirements.ts). */
  undeclared?: readonly UndeclaredImport[];
}

export interface GateContext {
  signal: AbortSignal;
  /** Human-readable progress ("installing numpy"); the tool forwards it to the client. */
  progress?: (message: string) => void;
}

export interface QualityGateParts {
  linter: () => Promise<Linter>;
  typer: () => Promise<Typer>;
  tests: PythonTestRunner;
  /** Undefined when the critic is off. */
  critic: () => Promise<Critic | undefined>;
  criticThreshold: number;
  criticTimeoutMs: number;
  logger?: Logger;
}

const SKIPPED = "Not run: an earlier step rejected the code.";

/** A step that failed to run: the error's own suggestion when it is a coded one, else `fallback`. */
function issueOf(code: StepIssue["code"], error: unknown, fallback: string): StepIssue {
  return { code, suggestion: isToolError(error) && error.code !== "INTERNAL" ? error.suggestion : fallback };
}

export class QualityGate {
  private readonly logger: Logger;

  constructor(private readonly parts: QualityGateParts) {
    this.logger = parts.logger ?? silentLogger;
  }

  async run(input: GateInput, context: GateContext): Promise<GateReport> {
    const started = Date.now();
    const say = (message: string) => context.progress?.(message);

    say("lint: ruff E,F,W,I");
    const lint = await this.lint(input.code, context.signal);
    const code = lint.fixedCode;
    const checks = input.checks;
    const closure = checks?.closure ?? [];
    if (checks && checks.dangerous.length > 0) {
      lint.report.dangerous_calls = [...checks.dangerous];
      lint.report.summary += ` Flagged (not rejected): ${checks.dangerous.map((d) => `${d.call} at line ${d.line}`).join(", ")}.`;
    }
    if (lint.report.reformatted) lint.report.summary += " A line was over the limit: the code was reformatted with ruff format.";
    let rejection: Rejection | undefined = lint.rejection;

    const skippedType: TypeReport = { step: "type", status: "skipped", tool: "", duration_ms: 0, summary: SKIPPED, errors: [] };
    const skippedTest: TestReport = {
      step: "test",
      status: "skipped",
      tool: "",
      duration_ms: 0,
      summary: SKIPPED,
      outcome: "skipped",
      cases: [],
    };
    let type: TypeReport = skippedType;
    let test: TestReport = skippedTest;
    if (!rejection) {
      // mypy and the tests both take the linted code and neither needs the other's result, so they
      // run at once (a warm save's tests, ~0.3 s, no longer wait for mypy's ~0.6 s on 2 cores). When
      // the type check fails, the tests are stopped and reported skipped, as when they ran after it.
      say("type check");
      say("tests");
      const stopTests = new AbortController();
      const testing = this.test({ ...input, code }, { ...context, signal: AbortSignal.any([context.signal, stopTests.signal]) });
      const stopped = () => {
        stopTests.abort(new Error("the type check failed"));
        return testing.then(
          () => undefined,
          () => undefined,
        );
      };
      try {
        type = await this.typeCheck(code, closure, context.signal);
      } catch (error) {
        await stopped();
        throw error;
      }
      if (type.status === "failed") {
        rejection = { step: "type", kind: "type_error", message: type.summary, details: formatDiagnostics(type.errors) };
        await stopped();
      } else {
        test = await testing;
        rejection = testRejection(test);
        // An undeclared package the tests could not import: say so, with what to declare.
        const reason = rejection && missingModuleReason(`${rejection.message}\n${rejection.details ?? ""}`, checks?.undeclared ?? []);
        if (rejection && reason) rejection = { ...rejection, message: `${rejection.message} ${reason}` };
      }
    }

    let critic: CriticReport;
    if (rejection) {
      critic = {
        step: "critic",
        status: "skipped",
        backend: "off",
        tool: "",
        duration_ms: 0,
        summary: SKIPPED,
        threshold: this.parts.criticThreshold,
      };
    } else {
      critic = await this.critique({ ...input, code }, context);
      if (critic.status === "failed") {
        rejection = {
          step: "critic",
          kind: "critic_rejected",
          message: critic.summary,
          ...(critic.comments ? { details: critic.comments } : {}),
        };
      }
    }

    const steps: GateReport["steps"] = [lint.report, type, test, critic];
    const status = statusOf(steps, rejection);
    const unverified = status === "unverified" ? unverifiedBy(steps) : undefined;
    const warnings = [
      ...(checks?.warnings ?? []),
      ...(checks?.dangerous ?? []).map(
        (d) => `line ${d.line}: ${d.call} runs code or a shell command; check that no input reaches it unchecked.`,
      ),
    ];
    return {
      status,
      code,
      code_changed: code !== input.code,
      steps,
      ...(rejection ? { rejection } : {}),
      ...(unverified ? { unverified } : {}),
      checked_at: new Date().toISOString(),
      duration_ms: Date.now() - started,
      ...(checks && checks.imports.length > 0
        ? { library: { imports: [...checks.imports], closure: closure.map((m) => ({ name: m.name, version: m.version })) } }
        : {}),
      ...(checks?.fingerprint ? { fingerprint: checks.fingerprint } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }

  private async lint(code: string, signal: AbortSignal): Promise<{ report: LintReport; fixedCode: string; rejection?: Rejection }> {
    const started = Date.now();
    let linter: Linter | undefined;
    try {
      linter = await this.parts.linter();
      const found = await linter.lint(code, signal);
      const base = {
        step: "lint" as const,
        tool: found.tool,
        duration_ms: Date.now() - started,
        errors: found.errors,
        fixed: found.fixed,
        unfixed: found.unfixed,
        syntax_error: found.syntaxError,
        ...(found.reformatted ? { reformatted: true } : {}),
      };
      const fixedNote = found.fixed.length > 0 ? ` ${found.fixed.length} W/I finding(s) were fixed automatically.` : "";
      if (found.syntaxError) {
        const first = found.errors.find((d) => d.code === "invalid-syntax");
        const summary = `Syntax error${first ? ` at line ${first.line}:${first.column}: ${first.message}` : ""}.`;
        return {
          report: { ...base, status: "failed", summary },
          fixedCode: found.fixedCode,
          rejection: { step: "lint", kind: "syntax_error", message: summary, details: formatDiagnostics(found.errors) },
        };
      }
      if (found.errors.length > 0) {
        const codes = [...new Set(found.errors.map((d) => d.code))].join(", ");
        const summary = `${found.errors.length} lint error(s) (${codes}) must be fixed.${fixedNote}`;
        return {
          report: { ...base, status: "failed", summary },
          fixedCode: found.fixedCode,
          rejection: { step: "lint", kind: "lint_error", message: summary, details: formatDiagnostics(found.errors) },
        };
      }
      const unfixedNote = found.unfixed.length > 0 ? ` ${found.unfixed.length} warning(s) have no automatic fix and were left.` : "";
      return { report: { ...base, status: "passed", summary: `No E/F findings.${fixedNote}${unfixedNote}` }, fixedCode: found.fixedCode };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const message = toToolError(error).message;
      this.logger.warn("lint step failed", { error: message });
      return {
        report: {
          step: "lint",
          status: "error",
          tool: linter?.kind ?? "ruff",
          duration_ms: Date.now() - started,
          summary: `The linter could not run: ${message}`,
          issue: issueOf(
            "LINTER_UNAVAILABLE",
            error,
            "Install ruff (pip install ruff) or set SOLO_LINTER=ruff-wasm; the log on stderr has the details.",
          ),
          errors: [],
          fixed: [],
          unfixed: [],
          syntax_error: false,
        },
        fixedCode: code,
      };
    }
  }

  private async typeCheck(code: string, closure: GateChecks["closure"], signal: AbortSignal): Promise<TypeReport> {
    const started = Date.now();
    const dir = await mkdtemp(join(tmpdir(), "solo-type-"));
    let typer: Typer | undefined;
    try {
      typer = await this.parts.typer();
      await writeFile(join(dir, "function.py"), code);
      // The imported library functions, checked together with the code.
      if (closure.length > 0) await writeLibraryPackage(dir, closure);
      const found = await typer.check(dir, signal);
      const duration_ms = Date.now() - started;
      if (found.errors.length > 0) {
        const first = found.errors[0];
        return {
          step: "type",
          status: "failed",
          tool: found.tool,
          duration_ms,
          summary: `${found.errors.length} type error(s)${first ? `; first at line ${first.line}: ${first.message}` : ""}.`,
          errors: found.errors,
        };
      }
      return { step: "type", status: "passed", tool: found.tool, duration_ms, summary: "No type errors.", errors: [] };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const message = toToolError(error).message;
      this.logger.warn("type step failed", { error: message });
      return {
        step: "type",
        status: "error",
        tool: typer?.kind ?? "typer",
        duration_ms: Date.now() - started,
        summary: `The type checker could not run: ${message}`,
        issue: issueOf(
          "TYPER_UNAVAILABLE",
          error,
          "Install mypy (pip install mypy) or set SOLO_TYPER=pyright; the log on stderr has the details.",
        ),
        errors: [],
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async test(input: GateInput, context: GateContext): Promise<TestReport> {
    const started = Date.now();
    try {
      const closure = input.checks?.closure ?? [];
      // The environment holds the packages of the imported functions too.
      const dependencies = [...new Set([...input.dependencies, ...closure.flatMap((m) => m.dependencies)])].sort();
      return await this.parts.tests.run(
        {
          name: input.name,
          code: input.code,
          dependencies,
          cases: input.testCases,
          skip: input.skipTests,
          ...(closure.length > 0 ? { library: closure } : {}),
        },
        context,
      );
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      const message = toToolError(error).message;
      this.logger.warn("test step failed", { error: message });
      return {
        step: "test",
        status: "error",
        tool: "python",
        duration_ms: Date.now() - started,
        summary: `The tests could not run: ${message}`,
        issue: issueOf("TESTS_NOT_RUN", error, "Check the gate's tools with `solo-assets status`; the log on stderr has the details."),
        outcome: "error",
        cases: [],
      };
    }
  }

  private async critique(input: GateInput, context: GateContext): Promise<CriticReport> {
    const started = Date.now();
    const threshold = this.parts.criticThreshold;
    let critic: Critic | undefined;
    try {
      critic = await this.parts.critic();
      if (!critic) {
        return { step: "critic", status: "skipped", backend: "off", tool: "off", duration_ms: 0, summary: "The critic is off.", threshold };
      }
      context.progress?.(`critic: ${critic.backend} ${critic.model}`);
      const deadline = AbortSignal.any([context.signal, AbortSignal.timeout(this.parts.criticTimeoutMs)]);
      const verdict = await critic.review({ name: input.name, description: input.description, code: input.code }, deadline);
      const score = meanScore(verdict.scores);
      const passed = score >= threshold;
      const s = verdict.scores;
      return {
        step: "critic",
        status: passed ? "passed" : "failed",
        backend: critic.backend,
        model: critic.model,
        tool: `${critic.backend} ${critic.model}`,
        duration_ms: Date.now() - started,
        summary: `${critic.backend} ${critic.model} scored ${score} (readability ${s.readability}, docstring ${s.docstring}, reusability ${s.reusability}); ${passed ? "passes" : "below"} the threshold ${threshold}.`,
        threshold,
        scores: verdict.scores,
        score,
        comments: verdict.comments,
      };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      const message = toToolError(error).message;
      this.logger.warn("critic failed", { error: message });
      return {
        step: "critic",
        status: "error",
        backend: critic?.backend ?? "off",
        ...(critic ? { model: critic.model } : {}),
        tool: critic ? `${critic.backend} ${critic.model}` : "critic",
        duration_ms: Date.now() - started,
        summary: `The critic could not score the code: ${message}`,
        issue: issueOf(
          "CRITIC_UNAVAILABLE",
          error,
          "Check the critic's settings (SOLO_CRITIC, the API key or SOLO_CRITIC_MODEL_PATH) or set SOLO_CRITIC=off.",
        ),
        threshold,
      };
    }
  }
}

function testRejection(test: TestReport): Rejection | undefined {
  const kinds: Partial<Record<TestReport["outcome"], Rejection["kind"]>> = {
    test_failed: "test_failed",
    timeout: "timeout",
    install_failed: "install_failed",
    syntax_error: "syntax_error",
  };
  const kind = kinds[test.outcome];
  if (!kind) return undefined;
  return { step: "test", kind, message: test.summary, ...(test.traceback ? { details: test.traceback } : {}) };
}

/** Why an unverified function is unverified: the first step that did not judge it. */
function unverifiedBy(steps: GateReport["steps"]): Unverified {
  const verified: StepName[] = ["lint", "type", "test"];
  const step = steps.find((s) => (verified.includes(s.step) && s.status !== "passed") || s.status === "error") ?? steps[2];
  const issue = step.issue ?? { code: "TESTS_NOT_RUN", suggestion: "Save again with test cases." };
  return { step: step.step, code: issue.code, message: step.summary, suggestion: issue.suggestion };
}

function statusOf(steps: GateReport["steps"], rejection: Rejection | undefined): FunctionStatus {
  if (rejection) return "broken";
  const verified: StepName[] = ["lint", "type", "test"];
  const unverified = steps.some((s) => (verified.includes(s.step) && s.status !== "passed") || s.status === "error");
  return unverified ? "unverified" : "active";
}
