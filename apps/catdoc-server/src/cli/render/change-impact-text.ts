/** `catdoc review` and `catdoc diff` for the terminal, and diff's JSON. */
import type { ChangeImpact, DocumentTextDiff, ReviewOutcome, SuspectLink } from "../../domain/change-impact/index.js";
import { impactCounts } from "../../domain/change-impact/index.js";
import { renderTable } from "../table.js";
import { safeText } from "../text-width.js";

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function renderReview(outcome: ReviewOutcome): string {
  if (outcome.reviewed.length === 0) return "Nothing to review: every link is reviewed and its documents are unchanged.\n";
  const rows = outcome.reviewed.map((link) => [link.id, link.kind, `${link.source} → ${link.target}`, link.was]);
  const cleared = outcome.cleared.length === 0 ? "" : `; cleared through them: ${outcome.cleared.join(", ")}`;
  return `${renderTable(["LINK", "KIND", "ENDS", "WAS"], rows)}Reviewed ${plural(outcome.reviewed.length, "link")}${cleared}.\n`;
}

function suspectJson(suspect: SuspectLink) {
  const { link } = suspect;
  return {
    id: link.id,
    kind: link.kind,
    source: link.source,
    target: link.target,
    documents: suspect.documents,
    ...(suspect.changed.length > 0 ? { changed: suspect.changed } : {}),
    ...(suspect.via === undefined ? {} : { via: suspect.via }),
  };
}

/** `texts` (the text diffs) are added to their documents as `diffs: [{reviewed, patch}]` when given. */
export function diffJson(impact: ChangeImpact, texts?: readonly DocumentTextDiff[]) {
  const changedDocuments =
    texts === undefined
      ? impact.changedDocuments
      : impact.changedDocuments.map((document) => ({
          ...document,
          diffs: texts.filter((t) => t.objectId === document.objectId).map((t) => ({ reviewed: t.reviewed, patch: t.patch })),
        }));
  return { counts: impactCounts(impact), changedDocuments, suspect: impact.suspect.map(suspectJson) };
}

/** The unified diffs after the table (document text is project content: control characters are removed). */
export function renderTextDiffs(texts: readonly DocumentTextDiff[]): string {
  return texts
    .map((t) =>
      t.patch === null
        ? `\n${safeText(t.objectId)}: the text reviewed as ${t.reviewed} is not kept (reviewed before .catdoc/reviewed/ kept texts, or its snapshot is gone).\n`
        : `\n${safeText(t.patch)}`,
    )
    .join("");
}

export function renderDiff(impact: ChangeImpact): string {
  const counts = impactCounts(impact);
  const reviewed = `${plural(counts.reviewed, "link")} reviewed, ${counts.unreviewed} never reviewed`;
  if (impact.changedDocuments.length === 0) return `No document changed since the last review (${reviewed}).\n`;
  const rows = impact.changedDocuments.map((document) => [
    document.objectId,
    document.path ?? "(in category.yaml)",
    document.reviewed.join(", "),
    document.current,
    document.directLinks.join(", "),
    document.spreadLinks.length === 0 ? "" : document.spreadLinks.join(", "),
  ]);
  const table = renderTable(["DOCUMENT", "PATH", "REVIEWED", "NOW", "SUSPECT LINKS", "THROUGH THEM"], rows);
  return (
    `${table}${plural(impact.changedDocuments.length, "document")} changed since the last review: ` +
    `${plural(counts.suspect, "suspect link")} (${counts.direct} at the changed documents, ${counts.suspect - counts.direct} through them; ${reviewed}).\n`
  );
}
