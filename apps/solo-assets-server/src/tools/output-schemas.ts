/**
 * zod schemas of what the tools return: the gate's step reports and a function at each
 * response level. Fields that are not present at every level are optional (core checks every
 * result against these).
 */
import { nestingDepth } from "@local-mcp/core";
import { z } from "zod";

export const StatusSchema = z
  .enum(["active", "broken", "unverified"])
  .describe("active: passed the gate; broken: rejected; unverified: stored without running tests (or a step could not judge)");
const StepStatusSchema = z.enum(["passed", "failed", "skipped", "error"]);

const DiagnosticSchema = z.object({ code: z.string(), message: z.string(), line: z.number().int(), column: z.number().int() });

const GATE_ISSUE_CODES = [
  "PYTHON_UNAVAILABLE",
  "VENV_UNAVAILABLE",
  "INSTALLER_UNAVAILABLE",
  "SANDBOX_UNAVAILABLE",
  "LINTER_UNAVAILABLE",
  "TYPER_UNAVAILABLE",
  "CRITIC_UNAVAILABLE",
  "TESTS_NOT_RUN",
  "NO_TESTS",
  "TESTS_SKIPPED",
] as const;

const StepIssueSchema = z
  .object({ code: z.enum(GATE_ISSUE_CODES), suggestion: z.string() })
  .describe("why the step could not judge the code, and what to do");

const StepBase = {
  status: StepStatusSchema,
  tool: z.string(),
  duration_ms: z.number(),
  summary: z.string(),
  issue: StepIssueSchema.optional(),
};

export const LintReportSchema = z.object({
  step: z.literal("lint"),
  ...StepBase,
  errors: z.array(DiagnosticSchema),
  fixed: z.array(DiagnosticSchema),
  unfixed: z.array(DiagnosticSchema),
  syntax_error: z.boolean(),
  reformatted: z.boolean().optional(),
  dangerous_calls: z.array(z.object({ line: z.number().int(), call: z.string() })).optional(),
});

export const TypeReportSchema = z.object({ step: z.literal("type"), ...StepBase, errors: z.array(DiagnosticSchema) });

export const TestReportSchema = z.object({
  step: z.literal("test"),
  ...StepBase,
  outcome: z.enum([
    "passed",
    "test_failed",
    "timeout",
    "install_failed",
    "syntax_error",
    "skipped",
    "no_tests",
    "error",
    "sandbox_unavailable",
  ]),
  cases: z.array(
    z.object({
      index: z.number().int(),
      kind: z.enum(["call", "assert"]),
      label: z.string(),
      passed: z.boolean(),
      actual: z.string().optional(),
      error: z.string().optional(),
    }),
  ),
  environment: z
    .object({
      hash: z.string(),
      dependencies: z.array(z.string()),
      reused: z.boolean(),
      installer: z.string(),
      install_ms: z.number(),
    })
    .optional(),
  sandbox: z
    .object({
      kind: z.string().optional(),
      network_isolated: z.boolean(),
      limits: z.string().optional(),
      memory_mb: z.number(),
      max_processes: z.number().optional(),
      timeout_ms: z.number(),
    })
    .optional(),
  traceback: z.string().optional(),
});

export const CriticReportSchema = z.object({
  step: z.literal("critic"),
  ...StepBase,
  backend: z.enum(["gemini", "local", "off"]),
  model: z.string().optional(),
  threshold: z.number(),
  scores: z.object({ readability: z.number(), docstring: z.number(), reusability: z.number() }).optional(),
  score: z.number().optional(),
  comments: z.string().optional(),
});

export const StepReportSchema = z.discriminatedUnion("step", [LintReportSchema, TypeReportSchema, TestReportSchema, CriticReportSchema]);

export const StepSummarySchema = z.object({
  step: z.enum(["lint", "type", "test", "critic"]),
  status: StepStatusSchema,
  tool: z.string(),
  summary: z.string(),
  issue: StepIssueSchema.optional(),
});

export const UnverifiedSchema = z
  .object({
    step: z.enum(["lint", "type", "test", "critic"]),
    code: z.enum(GATE_ISSUE_CODES),
    message: z.string(),
    suggestion: z.string(),
  })
  .describe("why the function is unverified (a step could not run, or no tests): do what the suggestion says and save again");

export const RejectionSchema = z
  .object({
    step: z.enum(["lint", "type", "test", "critic"]),
    kind: z.enum(["syntax_error", "lint_error", "type_error", "install_failed", "timeout", "test_failed", "critic_rejected"]),
    message: z.string(),
    details: z.string().optional().describe("diagnostics, the traceback, or the install log"),
  })
  .describe("why the gate rejected the code: fix this and save again");

export const GateReportSchema = z.object({
  status: StatusSchema,
  code_changed: z.boolean(),
  steps: z.array(StepReportSchema),
  rejection: RejectionSchema.optional(),
  unverified: UnverifiedSchema.optional(),
  checked_at: z.string(),
  duration_ms: z.number(),
  library: z
    .object({ imports: z.array(z.string()), closure: z.array(z.object({ name: z.string(), version: z.number().int() })) })
    .optional(),
  fingerprint: z.string().optional(),
  warnings: z.array(z.string()).optional(),
});

/** Test-case values nest at most this deep (a Python literal of them must stay readable). */
export const MAX_TEST_CASE_DEPTH = 32;

export const TestCaseSchema = z.union([
  z
    .object({ input: z.record(z.string(), z.unknown()), expected: z.unknown() })
    .refine((testCase) => nestingDepth(testCase, MAX_TEST_CASE_DEPTH + 1) <= MAX_TEST_CASE_DEPTH + 1, {
      message: `nested more than ${MAX_TEST_CASE_DEPTH} levels deep; pass flatter values or write the case as an assert statement`,
    }),
  z.string(),
]);

/** A function in lists and search results: minimal ⊆ standard ⊆ full. */
export const FunctionSummarySchema = z.object({
  name: z.string(),
  status: StatusSchema,
  version: z.number().int(),
  description: z.string().optional(),
  signature: z.string().optional(),
  tags: z.array(z.string()).optional(),
  docstring: z.string().optional(),
  dependencies: z.array(z.string()).optional(),
  updated_at: z.string().optional(),
});
