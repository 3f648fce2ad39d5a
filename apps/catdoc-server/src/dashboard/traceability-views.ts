/**
 * The dashboard's coverage, suspect-link and search answers (`/api/coverage`,
 * `/api/suspect-links`, `/api/search`): the domain's own results — computeCoverage
 * (domain/coverage.ts), projectImpact (domain/change-impact/) and the project's search index
 * (domain/search.ts) — in the shapes `catdoc coverage --format json` and the exports use.
 */
import { impactCounts, projectImpact } from "../domain/change-impact/index.js";
import { computeCoverage } from "../domain/coverage.js";
import type { CoverageReport } from "../domain/coverage.js";
import { CatDocInputError } from "../domain/index.js";
import type { CatDocProject, SearchResult } from "../domain/index.js";
import { suspectLinkView } from "../domain/export/index.js";
import type { TraceSuspectLink } from "../domain/export/index.js";

/** Coverage of every functor (or of one: NOT_FOUND for an unknown id) and the orphans, as `catdoc coverage --format json`. */
export function coverageView(project: CatDocProject, functorId: string | undefined): CoverageReport {
  return computeCoverage(project.index, functorId === undefined ? {} : { functorId });
}

export interface SuspectLinksView {
  links: number;
  reviewed: number;
  unreviewed: number;
  suspect: TraceSuspectLink[];
  /** Documents changed since a review of a link at them: object id, root-relative path (null when inline). */
  changedDocuments: Array<{ objectId: string; path: string | null; directLinks: string[]; spreadLinks: string[] }>;
}

/** The project's suspect links now, and the documents whose change made them suspect. */
export async function suspectLinksView(project: CatDocProject): Promise<SuspectLinksView> {
  const impact = await projectImpact(project);
  const counts = impactCounts(impact);
  return {
    links: counts.links,
    reviewed: counts.reviewed,
    unreviewed: counts.unreviewed,
    suspect: impact.suspect.map(suspectLinkView),
    changedDocuments: impact.changedDocuments.map((d) => ({
      objectId: d.objectId,
      path: d.path,
      directLinks: d.directLinks,
      spreadLinks: d.spreadLinks,
    })),
  };
}

/** A search of the project's objects (INVALID_INPUT without a query). */
export async function searchView(
  project: CatDocProject,
  query: string | undefined,
  options: { categoryId: string | undefined; limit: number | undefined },
): Promise<SearchResult> {
  if (query === undefined || query.trim() === "") throw new CatDocInputError("Missing q: the words to search for", { q: query ?? "" });
  return project.search(query, {
    ...(options.categoryId === undefined ? {} : { categoryId: options.categoryId }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  });
}
