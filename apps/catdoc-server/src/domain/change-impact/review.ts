/**
 * Reviewing links: one store edit (locked, atomic; comments and key order kept) that stamps
 * each link with the hashes of the documents at its ends now. The whole request is checked
 * before anything is stamped, so a bad id writes nothing:
 *   - an id that names no link → NOT_FOUND;
 *   - a reviewed link whose ends are unchanged and that nothing makes suspect → CONFLICT;
 *   - a link suspect only through another one → CONFLICT naming the link to review (stamping
 *     it would record the same hashes and clear nothing).
 * A link never reviewed may always be reviewed (that records its baseline). A functor or natural
 * transformation id stands for its links that need a review (CONFLICT when none does). `all` reviews
 * every directly suspect and every unreviewed link; the links suspect through them clear with
 * them. Hashes are taken under the store's lock, so the stamps match the documents checked; the
 * texts stamped are kept as snapshots (snapshots.ts) for `catdoc diff`.
 */
import { CatDocError } from "../errors.js";
import type { CatDocProject } from "../project.js";
import type { CatDocStore, EditOptions } from "../store/store.js";
import type { StampTarget } from "../store/edit-reviews.js";
import { currentDocumentHashes } from "./document-hashes.js";
import { indexProject } from "../project-index.js";
import { projectLinks } from "./links.js";
import type { ChangeLink } from "./links.js";
import { saveSnapshots } from "./snapshots.js";
import { findSuspectLinks, stampNow } from "./suspect.js";
import type { ChangeImpact } from "./suspect.js";

export interface ReviewRequest {
  /** Link ids (`f`, `F/A`, `η/A`), or a functor or NT id (its links that need a review); or `all`. */
  ids?: readonly string[];
  all?: boolean;
}

export interface ReviewedLink {
  id: string;
  kind: ChangeLink["kind"];
  source: string;
  target: string;
  /** The stamp written. */
  stamp: { source: string; target: string };
  /** Why it was reviewed: its ends changed ("suspect") or it had no stamp ("unreviewed"). */
  was: "suspect" | "unreviewed";
}

export interface ReviewOutcome {
  reviewed: ReviewedLink[];
  /** Links that were suspect only through the reviewed ones (now clear). */
  cleared: string[];
  written: boolean;
  version: string;
}

function stampTarget(link: ChangeLink): StampTarget {
  if (link.kind === "morphism") return { kind: "morphism", categoryId: link.categoryId ?? "", morphismId: link.id };
  if (link.kind === "mapping") return { kind: "mapping", functorId: link.functorId ?? "", objectId: link.objectId ?? "" };
  return { kind: "component", naturalTransformationId: link.naturalTransformationId ?? "", objectId: link.objectId ?? "" };
}

function isStructureId(links: readonly ChangeLink[], id: string): boolean {
  return links.some((l) => l.functorId === id || l.naturalTransformationId === id);
}

/** Which links the request names, checked against the current impact; throws before any write. */
export function linksToReview(impact: ChangeImpact, allLinks: readonly ChangeLink[], request: ReviewRequest): ChangeLink[] {
  const suspect = new Map(impact.suspect.map((s) => [s.link.id, s]));
  if (request.all === true) {
    return allLinks.filter((link) => link.reviewed === undefined || (suspect.get(link.id)?.changed.length ?? 0) > 0);
  }
  const byId = new Map<string, ChangeLink>();
  for (const link of allLinks) if (!byId.has(link.id)) byId.set(link.id, link);
  const chosen: ChangeLink[] = [];
  for (const id of new Set(request.ids ?? [])) {
    const link = byId.get(id);
    if (link === undefined && isStructureId(allLinks, id)) {
      // A functor or natural transformation id: its links that need a review (suspect at their own ends, or never reviewed).
      const own = allLinks.filter(
        (l) =>
          (l.functorId === id || l.naturalTransformationId === id) &&
          (l.reviewed === undefined || (suspect.get(l.id)?.changed.length ?? 0) > 0),
      );
      if (own.length === 0) {
        throw new CatDocError("CONFLICT", `Nothing to review in '${id}': each of its links is reviewed and its documents are unchanged`, {
          details: { id, reason: "not-suspect" },
          suggestion: "Review only suspect links (SUSPECT_LINK in `catdoc validate`, or `catdoc diff`); nothing was written.",
        });
      }
      chosen.push(...own);
      continue;
    }
    if (link === undefined) {
      throw new CatDocError(
        "NOT_FOUND",
        `No link '${id}': a link is a morphism id, <functor>/<object> or <natural transformation>/<object>`,
        {
          details: { kind: "link", id },
          suggestion: "Run `catdoc validate` (SUSPECT_LINK) or `catdoc diff` to see the suspect links and their ids.",
        },
      );
    }
    const found = suspect.get(id);
    if (link.reviewed !== undefined && found === undefined) {
      throw new CatDocError("CONFLICT", `Link '${id}' is not suspect: the documents at its ends are unchanged since its last review`, {
        details: { id, reason: "not-suspect" },
        suggestion: "Review only suspect links (SUSPECT_LINK in `catdoc validate`, or `catdoc diff`); nothing was written.",
      });
    }
    if (found !== undefined && found.changed.length === 0 && found.via !== undefined) {
      // The link the suspicion started from: follow `via` back to a link whose own end changed.
      let root = found;
      for (let step = 0; root.changed.length === 0 && root.via !== undefined && step < suspect.size; step += 1) {
        root = suspect.get(root.via.linkId) ?? root;
      }
      throw new CatDocError(
        "CONFLICT",
        `Link '${id}' is suspect only through '${found.via.linkId}' (${found.via.rule}); review '${root.link.id}', whose document changed`,
        {
          details: { id, reason: "suspect-through", via: found.via.linkId, review: root.link.id },
          suggestion: `Review '${root.link.id}' (catdoc review ${root.link.id}); the links suspect through it clear with it. Nothing was written.`,
        },
      );
    }
    chosen.push(link);
  }
  return [...new Set(chosen)];
}

/** Stamps the links `request` names (see the file comment); nothing is written when a check fails. */
export async function reviewLinks(store: CatDocStore, request: ReviewRequest, options: EditOptions = {}): Promise<ReviewOutcome> {
  const edit = await store.edit(async (editor, project: CatDocProject) => {
    const hashes = await currentDocumentHashes(project, undefined, { withText: true });
    const impact = findSuspectLinks(project.index, hashes);
    const chosen = linksToReview(impact, projectLinks(project.index), request);
    const reviewed: ReviewedLink[] = [];
    for (const link of chosen) {
      const stamp = stampNow(link, hashes);
      if (stamp === undefined) continue;
      editor.setReviewStamp(stampTarget(link), stamp);
      reviewed.push({
        id: link.id,
        kind: link.kind,
        source: link.source,
        target: link.target,
        stamp,
        was: link.reviewed === undefined ? "unreviewed" : "suspect",
      });
    }
    const ends = new Set(reviewed.flatMap((link) => [link.source, link.target]));
    await saveSnapshots(
      project.paths,
      [...ends].flatMap((id) => hashes.get(id) ?? []),
    );
    const after = findSuspectLinks(indexProject(editor.model), hashes);
    const still = new Set(after.suspect.map((s) => s.link.id));
    const stamped = new Set(reviewed.map((r) => r.id));
    const cleared = impact.suspect.filter((s) => !still.has(s.link.id) && !stamped.has(s.link.id)).map((s) => s.link.id);
    return { reviewed, cleared };
  }, options);
  return { ...edit.result, written: edit.written, version: edit.version };
}
