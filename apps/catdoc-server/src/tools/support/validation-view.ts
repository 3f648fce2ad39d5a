/**
 * How the four validate tools render a ValidationReport. A big project can have tens of
 * thousands of warnings, so `errors` and `warnings` are each cut to `limit` items from `offset`
 * (the same at every level, so levels nest), while `summary` and `countsByCode` always give the
 * full counts. minimal: the verdict, the counts and the errors as code + ids (what decides the
 * next step); standard: adds the scope, each error's message and the warnings (code, ids,
 * message); full: adds severities and every check the scope runs, with what it means.
 */
import { eachAtLevel, lazySchema, LeveledResponse } from "@local-mcp/core";
import type { ResponseLevel } from "@local-mcp/core";
import { z } from "zod";
import { VALIDATION_CHECKS, VALIDATION_CODES } from "../../domain/validate/issues.js";
import type { ProjectIndex, ValidationCode, ValidationIssue, ValidationReport } from "../../domain/index.js";
import type * as ValidatorsModule from "../../domain/validate/validate.js";
import { pagingInput } from "./paging.js";
import type { PageBounds } from "./paging.js";

type Validators = typeof ValidatorsModule;

/** The validators, loaded on the first validation (a lazy chunk in the bundle). */
export function validators(): Promise<Validators> {
  return import("../../domain/validate/validate.js");
}

const projectReports = new WeakMap<ProjectIndex, ValidationReport>();

/**
 * The whole project's report, computed once per loaded version of category.yaml (the store
 * keeps the project, and so its index, while the file is unchanged), so paging through a long
 * report does not validate again for every page.
 */
export async function validateProjectOnce(index: ProjectIndex): Promise<ValidationReport> {
  let report = projectReports.get(index);
  if (report === undefined) {
    report = (await validators()).validateProject(index);
    projectReports.set(index, report);
  }
  return report;
}

export const VALIDATION_PAGE: PageBounds = { defaultLimit: 50, maxLimit: 1000 };

export const validationPagingInput = lazySchema(() => pagingInput("errors and warnings (each list)", VALIDATION_PAGE));

const CodeSchema = lazySchema(() => z.enum(VALIDATION_CODES as [ValidationCode, ...ValidationCode[]]));

const ScopeOutput = lazySchema(() =>
  z.object({ kind: z.enum(["project", "category", "functor", "naturalTransformation"]), id: z.string().optional() }),
);

const IssueOutput = lazySchema(() =>
  z.object({
    code: CodeSchema(),
    categoryId: z.string().optional(),
    functorId: z.string().optional(),
    naturalTransformationId: z.string().optional(),
    objectId: z.string().optional(),
    morphismId: z.string().optional(),
    objectIds: z.array(z.string()).optional(),
    morphismIds: z.array(z.string()).optional(),
    linkId: z.string().optional(),
    documentIds: z.array(z.string()).optional(),
    pairs: z.array(z.array(z.string())).optional(),
    candidateIds: z.array(z.string()).optional(),
    message: z.string().optional(),
    severity: z.enum(["error", "warning"]).optional(),
  }),
);

export const ValidationOutput = lazySchema(() =>
  z.object({
    isValid: z.boolean(),
    summary: z.object({
      categoriesChecked: z.number().int(),
      functorsChecked: z.number().int(),
      naturalTransformationsChecked: z.number().int(),
      totalErrors: z.number().int(),
      totalWarnings: z.number().int(),
    }),
    countsByCode: z.record(z.string(), z.number().int()).describe("Every error and warning counted by code (never cut)."),
    errors: z.array(IssueOutput()).describe("Errors from offset, at most limit: code and ids; standard adds the message."),
    truncated: z.boolean().describe("True when errors or warnings were cut to the limit; summary still counts all."),
    nextOffset: z.number().int().optional(),
    notice: z.string().optional(),
    scope: ScopeOutput().optional().describe("standard: what was checked."),
    warnings: z.array(IssueOutput()).optional().describe("standard: warnings from offset, at most limit."),
    offset: z.number().int().optional(),
    checks: z
      .record(z.string(), z.string())
      .optional()
      .describe("full: every check this scope runs, by code: its severity and what it means."),
  }),
);

export type ValidationScope = z.infer<ReturnType<typeof ScopeOutput>>;

/** The checks each scope runs (DUPLICATE_ID guards the ids of everything checked). */
const SCOPE_CHECKS: Record<ValidationScope["kind"], readonly ValidationCode[]> = {
  project: VALIDATION_CODES,
  category: [
    "DUPLICATE_ID",
    "MISSING_IDENTITY",
    "UNDEFINED_ENDPOINT",
    ...VALIDATION_CODES.filter((code) => code.startsWith("COMPOSITE_")),
    "EMPTY_CATEGORY",
    "MISSING_COMPOSITION",
    "AMBIGUOUS_COMPOSITION",
    "SUSPECT_LINK",
  ],
  functor: VALIDATION_CODES.filter((code) => code === "DUPLICATE_ID" || code.startsWith("FUNCTOR_")),
  naturalTransformation: VALIDATION_CODES.filter((code) => code === "DUPLICATE_ID" || code.startsWith("NT_")),
};

function issueParts(issue: ValidationIssue) {
  const { code, severity, message, ...ids } = issue;
  return { minimal: { code, ...ids }, standard: { message }, full: { severity } };
}

/** A warning is listed from standard on, so its minimal part there already has the message. */
function warningParts(issue: ValidationIssue) {
  const { minimal, standard, full } = issueParts(issue);
  return { minimal: { ...minimal, ...standard }, full };
}

export function validationView(
  report: ValidationReport,
  scope: ValidationScope,
  request: { limit?: number | undefined; offset?: number | undefined },
): LeveledResponse {
  const limit = request.limit ?? VALIDATION_PAGE.defaultLimit;
  const offset = request.offset ?? 0;
  const errors = report.errors.slice(offset, offset + limit);
  const warnings = report.warnings.slice(offset, offset + limit);
  const end = offset + limit;
  const truncated = report.errors.length > end || report.warnings.length > end;
  const countsByCode: Record<string, number> = {};
  for (const issue of [...report.errors, ...report.warnings]) countsByCode[issue.code] = (countsByCode[issue.code] ?? 0) + 1;
  const checks = Object.fromEntries(
    SCOPE_CHECKS[scope.kind].map((code) => [code, `${VALIDATION_CHECKS[code].severity}: ${VALIDATION_CHECKS[code].description}`]),
  );
  const notice = truncated
    ? `Showing items ${offset + 1}-${end} of ${report.errors.length} errors and ${report.warnings.length} warnings (warnings are listed from ` +
      `response_level standard); call again with offset ${end} for more (countsByCode has every count).`
    : undefined;
  return new LeveledResponse((level: ResponseLevel) => ({
    minimal: {
      isValid: report.isValid,
      summary: report.summary,
      countsByCode,
      errors: eachAtLevel(level, errors, issueParts),
      truncated,
      ...(truncated ? { nextOffset: end, notice } : {}),
    },
    standard: {
      scope,
      warnings: eachAtLevel(level, warnings, warningParts),
      offset,
    },
    full: { checks },
  }));
}
