/** The validation report as a terminal table with a summary line. */
import type { ChangeImpact } from "../../domain/change-impact/index.js";
import type { ValidationIssue, ValidationReport } from "../../domain/index.js";
import { renderTable } from "../table.js";

function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** The ids an item concerns, compactly: `category=c object=a morphisms=f,g`. */
export function issueIds(issue: ValidationIssue): string {
  // A suspect link: its name says where it is (`f`, `F/a`, `eta/a`); then the changed documents.
  if (issue.linkId !== undefined) return `link=${issue.linkId} documents=${(issue.documentIds ?? []).join(",")}`;
  const parts: string[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value !== undefined) parts.push(`${label}=${value}`);
  };
  add("category", issue.categoryId);
  add("functor", issue.functorId);
  add("nt", issue.naturalTransformationId);
  add("object", issue.objectId);
  add("morphism", issue.morphismId);
  // The message names the objects of a diagram; list them only when no morphisms are named.
  if (issue.morphismIds !== undefined && issue.morphismId === undefined) parts.push(`morphisms=${issue.morphismIds.join(",")}`);
  else if (issue.objectIds !== undefined && issue.objectId === undefined) parts.push(`objects=${issue.objectIds.join(",")}`);
  return parts.join(" ");
}

export function validationSummary(report: Pick<ValidationReport, "isValid" | "summary">, strict: boolean): string {
  const { summary } = report;
  const checked = `${plural(summary.categoriesChecked, "category", "categories")}, ${plural(summary.functorsChecked, "functor")}, ${plural(summary.naturalTransformationsChecked, "natural transformation")} checked`;
  const found = `${plural(summary.totalErrors, "error")}, ${plural(summary.totalWarnings, "warning")}`;
  const verdict = !report.isValid ? "INVALID" : strict && summary.totalWarnings > 0 ? "FAILED (--strict: warnings count)" : "VALID";
  return `${verdict}: ${found} (${checked})`;
}

/**
 * The line about links never reviewed, once a project records reviews (a project that has none
 * does not use change impact: nothing is said, nothing is suspect).
 */
export function unreviewedNote(impact: Pick<ChangeImpact, "reviewed" | "unreviewed">): string | undefined {
  const count = impact.unreviewed.length;
  if (impact.reviewed === 0 || count === 0) return undefined;
  return `note: ${plural(count, "link")} never reviewed (${impact.unreviewed.slice(0, 5).join(", ")}${count > 5 ? ", …" : ""}); \`catdoc review --all\` records them`;
}

/** This module's URL: in the bundle, a content-hashed chunk (the validation cache keys entries by the code that rendered them). */
export const RENDER_MODULE_URL = import.meta.url;

/** The report's issues, errors first, as a table ("" when there are none). */
export function renderIssueTable(report: ValidationReport): string {
  const issues = [...report.errors, ...report.warnings];
  if (issues.length === 0) return "";
  return renderTable(
    ["SEVERITY", "CODE", "IDS", "MESSAGE"],
    issues.map((issue) => [issue.severity, issue.code, issueIds(issue), issue.message]),
  );
}

/** What follows the issues table (empty or not): the note and the summary line. */
export function validationTail(
  tableIsEmpty: boolean,
  report: Pick<ValidationReport, "isValid" | "summary">,
  strict: boolean,
  note?: string,
): string {
  return `${tableIsEmpty ? "" : "\n"}${note === undefined ? "" : `${note}\n`}${validationSummary(report, strict)}\n`;
}

export function renderValidationTable(report: ValidationReport, strict: boolean, note?: string): string {
  const table = renderIssueTable(report);
  return `${table}${validationTail(table === "", report, strict, note)}`;
}
