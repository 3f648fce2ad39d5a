/**
 * What the quality gate found, step by step. The same object goes into the save response and
 * into the stored metadata of the version, so the dashboard and `get_function` show exactly
 * what the agent was told. Keys are snake_case: this is JSON for agents and people.
 */

export type FunctionStatus = "active" | "broken" | "unverified";
export const FUNCTION_STATUSES: readonly FunctionStatus[] = ["active", "broken", "unverified"];

export type StepName = "lint" | "type" | "test" | "critic";
/** `error`: the step could not judge the code (a tool failed or is unavailable). */
export type StepStatus = "passed" | "failed" | "skipped" | "error";

export interface CodeDiagnostic {
  code: string;
  message: string;
  line: number;
  column: number;
}

/**
 * Why a step could not judge the code (or, for the tests, why none ran): a code a program can
 * branch on and what to do. Present on every step whose status is `error`, and on a test step
 * that did not run (no tests given, skipped on request, no sandbox).
 */
export type GateIssueCode =
  /** Python cannot be started (not installed, or SOLO_PYTHON names nothing that runs). */
  | "PYTHON_UNAVAILABLE"
  /** Python runs but cannot make a virtual environment (Debian/Ubuntu without python3-venv). */
  | "VENV_UNAVAILABLE"
  /** SOLO_INSTALLER names an installer that is not installed. */
  | "INSTALLER_UNAVAILABLE"
  /** No sandbox to run tests in (SOLO_SANDBOX=strict without bubblewrap or sandbox-exec). */
  | "SANDBOX_UNAVAILABLE"
  | "LINTER_UNAVAILABLE"
  | "TYPER_UNAVAILABLE"
  | "CRITIC_UNAVAILABLE"
  /** The tests could not run for another reason (the message says which). */
  | "TESTS_NOT_RUN"
  | "NO_TESTS"
  | "TESTS_SKIPPED";

export interface StepIssue {
  code: GateIssueCode;
  /** What to do, e.g. "Install python3-venv (apt install python3-venv) …". */
  suggestion: string;
}

interface StepBase {
  status: StepStatus;
  /** What ran, e.g. "ruff 0.16.9" or "ruff-wasm 0.17.3 (in-process)". */
  tool: string;
  duration_ms: number;
  /** One sentence an agent can act on. */
  summary: string;
  /** Why the step could not judge the code, and what to do (see StepIssue). */
  issue?: StepIssue;
}

export interface LintReport extends StepBase {
  step: "lint";
  /** E and F findings (and syntax errors): any of these rejects the code. */
  errors: CodeDiagnostic[];
  /** W and I findings fixed automatically; the stored code is the fixed code. */
  fixed: CodeDiagnostic[];
  /** W and I findings left (no fix available); reported, not rejected. */
  unfixed: CodeDiagnostic[];
  syntax_error: boolean;
  /** True when a line over the limit made the gate run `ruff format` (the stored code is the formatted one). */
  reformatted?: boolean;
  /** eval, exec, os.system, os.popen, subprocess with shell=True: flagged, not rejected. */
  dangerous_calls?: { line: number; call: string }[];
}

export interface TypeReport extends StepBase {
  step: "type";
  errors: CodeDiagnostic[];
}

/** The four failures of the test step are four different things, plus the non-failures. */
export type TestOutcome =
  | "passed"
  | "test_failed"
  | "timeout"
  | "install_failed"
  | "syntax_error"
  | "skipped"
  | "no_tests"
  | "error"
  /** No sandbox here (SOLO_SANDBOX=strict without bubblewrap or sandbox-exec): tests NOT run. */
  | "sandbox_unavailable";

export interface TestCaseResult {
  index: number;
  kind: "call" | "assert";
  /** `slugify(text='A B') == 'a-b'` or the assert statement. */
  label: string;
  passed: boolean;
  /** The value the call returned (JSON or repr), when it returned. */
  actual?: string;
  /** Why it failed: a mismatch or the traceback. */
  error?: string;
}

export interface TestEnvironmentInfo {
  hash: string;
  dependencies: string[];
  /** True when the pooled environment already existed (no install). */
  reused: boolean;
  installer: string;
  install_ms: number;
}

export interface SandboxInfo {
  /** bwrap, sandbox-exec, or the weak fallback's unshare / process (SOLO_SANDBOX=weak). */
  kind?: string;
  network_isolated: boolean;
  /** What bounds memory and processes: cgroup-v2, cgroup-v1, systemd-run (the whole run) or prlimit (each process). */
  limits?: string;
  memory_mb: number;
  max_processes?: number;
  timeout_ms: number;
}

export interface TestReport extends StepBase {
  step: "test";
  outcome: TestOutcome;
  cases: TestCaseResult[];
  environment?: TestEnvironmentInfo;
  sandbox?: SandboxInfo;
  /** The first failure's traceback (or the install log's tail for install_failed). */
  traceback?: string;
}

export type CriticBackend = "gemini" | "local" | "off";

export interface CriticScores {
  readability: number;
  docstring: number;
  reusability: number;
}

export interface CriticReport extends StepBase {
  step: "critic";
  /** Which critic ran: the response always says. */
  backend: CriticBackend;
  model?: string;
  threshold: number;
  scores?: CriticScores;
  /** Mean of the three scores; passes at ≥ threshold. */
  score?: number;
  comments?: string;
}

export type StepReport = LintReport | TypeReport | TestReport | CriticReport;

export type RejectionKind = "syntax_error" | "lint_error" | "type_error" | "install_failed" | "timeout" | "test_failed" | "critic_rejected";

/** Why a save was rejected: the first failing step, with what to fix. */
export interface Rejection {
  step: StepName;
  kind: RejectionKind;
  message: string;
  /** Diagnostics, the traceback, or the install log. */
  details?: string;
}

/** Why a function is `unverified`: the first step that could not judge it, in one place. */
export interface Unverified {
  step: StepName;
  code: GateIssueCode;
  message: string;
  suggestion: string;
}

export interface GateReport {
  status: FunctionStatus;
  /** The code as stored: the submitted code with W/I fixes applied. */
  code: string;
  code_changed: boolean;
  /** Always the four steps, in order; steps after a rejection are `skipped`. */
  steps: [LintReport, TypeReport, TestReport, CriticReport];
  rejection?: Rejection;
  /** Present exactly when the status is `unverified`. */
  unverified?: Unverified;
  checked_at: string;
  duration_ms: number;
  /** What the code imports from the library (`from solo_lib import …`) and the closure it was checked with. */
  library?: { imports: string[]; closure: { name: string; version: number }[] };
  /** The normalised AST's hash (the duplicate check's key); absent when Python could not read the code. */
  fingerprint?: string;
  /** Said, not refused: a near-duplicate, a dangerous call. */
  warnings?: string[];
}

export function formatDiagnostics(diagnostics: readonly CodeDiagnostic[], max = 20): string {
  const lines = diagnostics.slice(0, max).map((d) => `line ${d.line}:${d.column} ${d.code} ${d.message}`);
  if (diagnostics.length > max) lines.push(`…and ${diagnostics.length - max} more`);
  return lines.join("\n");
}
