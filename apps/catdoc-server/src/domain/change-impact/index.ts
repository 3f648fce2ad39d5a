/**
 * Change impact: suspect links. Each link (a morphism, a functor's object mapping, a natural
 * transformation's component) records the hashes of the documents at its ends when it was last
 * reviewed; a link whose end changed since is suspect, and suspicion spreads along compositions
 * and through functors. Loaded by the commands and tools that use it, not with the project.
 */
export { currentDocumentHashes, modelDocumentHashes } from "./document-hashes.js";
export type { DocumentHash } from "./document-hashes.js";
export { describeLink, projectLinks } from "./links.js";
export type { ChangeLink, LinkKind } from "./links.js";
export { findSuspectLinks, projectImpact, stampNow } from "./suspect.js";
export type { ChangeImpact, ChangedDocument, ChangedEnd, SpreadRule, SuspectLink } from "./suspect.js";
export { linksToReview, reviewLinks } from "./review.js";
export { SNAPSHOT_FOLDER, readSnapshot, saveSnapshots } from "./snapshots.js";
export { documentTextDiffs } from "./text-diff.js";
export type { DocumentTextDiff } from "./text-diff.js";
export type { ReviewOutcome, ReviewRequest, ReviewedLink } from "./review.js";
export { linkInScope, suspectLinkIssue, suspectLinkIssues, withSuspectLinks } from "./validation.js";
export type { ImpactScope } from "./validation.js";

import type { ChangeImpact } from "./suspect.js";

/** The counts of an impact, for reports: links, reviewed, never reviewed, suspect (directly and through others). */
export function impactCounts(impact: ChangeImpact): {
  links: number;
  reviewed: number;
  unreviewed: number;
  suspect: number;
  direct: number;
} {
  return {
    links: impact.links,
    reviewed: impact.reviewed,
    unreviewed: impact.unreviewed.length,
    suspect: impact.suspect.length,
    direct: impact.suspect.filter((s) => s.changed.length > 0).length,
  };
}
