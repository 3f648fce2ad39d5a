/**
 * The traceability model every export is made from (`catdoc export`, the dashboard's export
 * route): the categories with their objects and arrows, each functor's coverage row by row
 * (coverage.ts) and the suspect links (change-impact/), computed once and only by those modules.
 * `--format json` writes this model as it is; its shape is versioned by `schema` and `version`
 * (docs/catdoc.md, "Export") — a field is only ever added within a version.
 */
import { computeCoverage } from "../coverage.js";
import type { CoverageStatus, FunctorCoverage } from "../coverage.js";
import { documentPathOf } from "../document-path.js";
import { projectImpact } from "../change-impact/suspect.js";
import type { SpreadRule, SuspectLink } from "../change-impact/suspect.js";
import type { LinkKind } from "../change-impact/links.js";
import type { CatDocProject } from "../project.js";
import type { CategoryIndex } from "../project-index.js";

export const TRACEABILITY_SCHEMA = "catdoc-traceability";
export const TRACEABILITY_VERSION = 1;

export interface TraceObject {
  id: string;
  title: string;
  domain: string;
  /** Root-relative path of its document file when metadata names one; else null. */
  path: string | null;
}

export interface TraceMorphism {
  id: string;
  name: string;
  source: string;
  target: string;
  identity: boolean;
  suspect: boolean;
}

export interface TraceCategory {
  id: string;
  name: string;
  objects: TraceObject[];
  morphisms: TraceMorphism[];
  /** Objects with no arrow in or out besides their identity. */
  orphans: string[];
}

/** A non-identity arrow f: A → B out of a row's object and what the functor makes of it. */
export interface TraceArrow {
  morphismId: string;
  target: string;
  /** F(f) when it is an arrow of the target category; else null (not mapped). */
  image: string | null;
  /** True when F(f) is an identity (the functor collapses f). */
  collapsed: boolean;
}

/** One source object of a functor: its image, its arrows, its coverage status and suspicion. */
export interface TraceRow {
  objectId: string;
  title: string;
  image: string | null;
  imageTitle: string | null;
  status: CoverageStatus;
  arrows: TraceArrow[];
  /** The suspect links of this row: the mapping `F/A`, the arrows out of A and their images. */
  suspectLinks: string[];
  suspect: boolean;
}

/** A functor's coverage counts (coverage.ts's; percentages to one decimal), its suspect links and its rows. */
export interface TraceFunctor extends Pick<
  FunctorCoverage,
  "name" | "sourceCategory" | "targetCategory" | "objects" | "covered" | "triviallyCovered" | "uncovered" | "percent"
> {
  id: string;
  suspect: number;
  rows: TraceRow[];
}

export interface TraceSuspectLink {
  id: string;
  kind: LinkKind;
  source: string;
  target: string;
  /** Its own ends whose documents changed since its review (empty when suspect through another link). */
  changed: string[];
  via: { linkId: string; rule: SpreadRule } | null;
  /** The objects whose documents changed, at the root of the suspicion. */
  documents: string[];
}

export interface TraceabilityModel {
  schema: typeof TRACEABILITY_SCHEMA;
  version: typeof TRACEABILITY_VERSION;
  generatedAt: string;
  project: { name: string; version: string };
  /** The functor the export was limited to (--functor), else null. */
  functor: string | null;
  /** `links` and `reviewed` count the project's links; `suspectLinks` those listed (with a functor: its mappings' and its categories' arrows'). */
  summary: { categories: number; objects: number; functors: number; links: number; reviewed: number; suspectLinks: number };
  categories: TraceCategory[];
  functors: TraceFunctor[];
  suspectLinks: TraceSuspectLink[];
}

export interface TraceabilityOptions {
  /** Only this functor and its two categories (NOT_FOUND when there is none). */
  functorId?: string;
  /** The export's time (default: now). */
  now?: Date;
}

/** A suspect link as the exports and the dashboard show it. */
export function suspectLinkView(s: SuspectLink): TraceSuspectLink {
  return {
    id: s.link.id,
    kind: s.link.kind,
    source: s.link.source,
    target: s.link.target,
    changed: s.changed.map((c) => c.objectId),
    via: s.via ?? null,
    documents: s.documents,
  };
}

function traceCategory(entry: CategoryIndex, orphans: string[], suspect: ReadonlySet<string>): TraceCategory {
  return {
    id: entry.category.id,
    name: entry.category.name,
    objects: entry.category.objects.map((o) => ({ id: o.id, title: o.title, domain: o.domain, path: documentPathOf(o) ?? null })),
    morphisms: entry.category.morphisms.map((m) => ({
      id: m.id,
      name: m.name,
      source: m.source,
      target: m.target,
      identity: entry.identities.get(m.source) === m,
      suspect: suspect.has(m.id),
    })),
    orphans,
  };
}

/** The traceability model of a project as it is on disk now (documents at the ends of reviewed links are read). */
export async function buildTraceability(project: CatDocProject, options: TraceabilityOptions = {}): Promise<TraceabilityModel> {
  const index = project.index;
  const coverage = computeCoverage(index, options.functorId === undefined ? {} : { functorId: options.functorId });
  const impact = await projectImpact(project);
  const suspect = new Set(impact.suspect.map((s) => s.link.id));
  const orphans = new Map(coverage.categories.map((c) => [c.categoryId, c.orphans]));
  const categories = coverage.categories.flatMap((c) => {
    const entry = index.categories.get(c.categoryId);
    return entry === undefined ? [] : [traceCategory(entry, orphans.get(c.categoryId) ?? [], suspect)];
  });
  const functors = coverage.functors.map((report): TraceFunctor => {
    const functor = index.functors.get(report.functorId);
    const source = index.categories.get(report.sourceCategory);
    const target = index.categories.get(report.targetCategory);
    const rows = report.detail.map((object): TraceRow => {
      const arrows: TraceArrow[] = [];
      const linkIds = [`${report.functorId}/${object.id}`];
      const identity = source?.identities.get(object.id);
      for (const morphism of source?.outgoing.get(object.id) ?? []) {
        if (morphism === identity) continue;
        const mapped =
          functor !== undefined && Object.hasOwn(functor.morphismMapping, morphism.id) ? functor.morphismMapping[morphism.id] : undefined;
        const imageArrow = mapped === undefined ? undefined : target?.morphisms.get(mapped);
        const collapsed = imageArrow !== undefined && target?.identities.get(imageArrow.source) === imageArrow;
        arrows.push({ morphismId: morphism.id, target: morphism.target, image: imageArrow?.id ?? null, collapsed });
        linkIds.push(morphism.id);
        if (imageArrow !== undefined && !collapsed) linkIds.push(imageArrow.id);
      }
      const suspectLinks = [...new Set(linkIds.filter((id) => suspect.has(id)))];
      return {
        objectId: object.id,
        title: source?.objects.get(object.id)?.title ?? object.id,
        image: object.image,
        imageTitle: object.image === null ? null : (target?.objects.get(object.image)?.title ?? null),
        status: object.status,
        arrows,
        suspectLinks,
        suspect: suspectLinks.length > 0,
      };
    });
    return {
      id: report.functorId,
      name: report.name,
      sourceCategory: report.sourceCategory,
      targetCategory: report.targetCategory,
      objects: report.objects,
      covered: report.covered,
      triviallyCovered: report.triviallyCovered,
      uncovered: report.uncovered,
      percent: report.percent,
      suspect: rows.filter((r) => r.suspect).length,
      rows,
    };
  });
  // With --functor: the suspect links of its mappings and of its two categories' arrows.
  const kept = new Set(categories.map((c) => c.id));
  const inScope = (s: SuspectLink) =>
    options.functorId === undefined ||
    (s.link.kind === "mapping" ? s.link.functorId === options.functorId : kept.has(s.link.categoryId ?? ""));
  const suspectLinks = impact.suspect.filter(inScope).map(suspectLinkView);
  return {
    schema: TRACEABILITY_SCHEMA,
    version: TRACEABILITY_VERSION,
    generatedAt: (options.now ?? new Date()).toISOString(),
    project: { name: project.settings.projectName, version: project.version },
    functor: options.functorId ?? null,
    summary: {
      categories: categories.length,
      objects: categories.reduce((n, c) => n + c.objects.length, 0),
      functors: functors.length,
      links: impact.links,
      reviewed: impact.reviewed,
      suspectLinks: suspectLinks.length,
    },
    categories,
    functors,
    suspectLinks,
  };
}
