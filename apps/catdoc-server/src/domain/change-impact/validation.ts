/**
 * Suspect links as validation items: one SUSPECT_LINK warning per suspect link (an error under
 * `catdoc validate --strict`, which fails on any warning), naming the link and the changed
 * documents, added to the report of the laws.
 */
import type { ValidationIssue, ValidationReport } from "../validate/issues.js";
import { VALIDATION_CHECKS } from "../validate/issues.js";
import type { ChangeLink } from "./links.js";
import { describeLink } from "./links.js";
import type { ChangeImpact, SuspectLink } from "./suspect.js";

/** What a validation was asked to check: the links of one category, functor or natural transformation, or all. */
export type ImpactScope = { kind: "project" } | { kind: "category" | "functor" | "naturalTransformation"; id: string };

export function linkInScope(link: ChangeLink, scope: ImpactScope): boolean {
  if (scope.kind === "project") return true;
  if (scope.kind === "category") return link.kind === "morphism" && link.categoryId === scope.id;
  if (scope.kind === "functor") return link.functorId === scope.id;
  return link.naturalTransformationId === scope.id;
}

function message(suspect: SuspectLink): string {
  const { link } = suspect;
  if (suspect.via !== undefined) {
    return (
      `Link ${describeLink(link)} is suspect through '${suspect.via.linkId}' (${suspect.via.rule}): ` +
      `document${suspect.documents.length === 1 ? "" : "s"} ${suspect.documents.map((d) => `'${d}'`).join(", ")} changed since the review`
    );
  }
  const changes = suspect.changed.map((c) => `'${c.objectId}' (${c.end}, ${c.reviewed} → ${c.current})`).join(" and ");
  return `Link ${describeLink(link)} is suspect: document ${changes} changed since its last review; check it, then \`catdoc review ${link.id}\``;
}

export function suspectLinkIssue(suspect: SuspectLink): ValidationIssue {
  const { link } = suspect;
  const issue: ValidationIssue = { code: "SUSPECT_LINK", severity: VALIDATION_CHECKS.SUSPECT_LINK.severity, message: message(suspect) };
  if (link.categoryId !== undefined) issue.categoryId = link.categoryId;
  if (link.functorId !== undefined) issue.functorId = link.functorId;
  if (link.naturalTransformationId !== undefined) issue.naturalTransformationId = link.naturalTransformationId;
  if (link.objectId !== undefined) issue.objectId = link.objectId;
  if (link.morphismId !== undefined) issue.morphismId = link.morphismId;
  issue.linkId = link.id;
  issue.documentIds = [...suspect.documents];
  return issue;
}

/** The SUSPECT_LINK warnings of the links in `scope` (what withSuspectLinks adds to a report). */
export function suspectLinkIssues(impact: ChangeImpact, scope: ImpactScope = { kind: "project" }): ValidationIssue[] {
  return impact.suspect.filter((suspect) => linkInScope(suspect.link, scope)).map(suspectLinkIssue);
}

/** The report with a SUSPECT_LINK warning for every suspect link in `scope`. */
export function withSuspectLinks(
  report: ValidationReport,
  impact: ChangeImpact,
  scope: ImpactScope = { kind: "project" },
): ValidationReport {
  const added = suspectLinkIssues(impact, scope);
  if (added.length === 0) return report;
  const warnings = [...report.warnings, ...added];
  return { ...report, warnings, summary: { ...report.summary, totalWarnings: warnings.length } };
}
