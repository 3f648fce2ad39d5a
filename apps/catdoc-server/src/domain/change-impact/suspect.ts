/**
 * Suspect links: which reviewed links (links.ts) a change of a document puts in question.
 *
 * A reviewed link is suspect *directly* when the document at one of its ends hashes differently
 * now than its stamp recorded. Suspicion then spreads to other reviewed links, each reached once
 * (so the spread ends), naming the link it came through:
 *   - composition: for composable f: A → B and g: B → C, every other morphism h: A → C — what
 *     g∘f may be — is suspect when f or g is;
 *   - functors: when a morphism f is suspect, its image F(f) under every functor F is; when an
 *     object mapping A ↦ F(A) is suspect, the mappings F(A) ↦ G(F(A)) of the functors G that
 *     leave F's target category are (requirements → design → tests);
 *   - natural transformations: the component η_A is suspect when its morphism is, or when the
 *     mapping of A by either of η's functors is.
 * A link without a stamp (never reviewed: every link of a project from before reviews existed)
 * is "unreviewed": counted, never suspect, and it passes no suspicion on.
 */
import type { Functor, Morphism, NaturalTransformation } from "../model.js";
import type { CatDocProject } from "../project.js";
import type { CategoryIndex, ProjectIndex } from "../project-index.js";
import { currentDocumentHashes } from "./document-hashes.js";
import type { DocumentHash } from "./document-hashes.js";
import { projectLinks } from "./links.js";
import type { ChangeLink } from "./links.js";

/** A document at one end of a link that changed since the link's review. */
export interface ChangedEnd {
  objectId: string;
  end: "source" | "target";
  reviewed: string;
  current: string;
}

export type SpreadRule = "composition" | "functor" | "natural-transformation";

export interface SuspectLink {
  link: ChangeLink;
  /** Its own ends that changed (empty when it is suspect only through another link). */
  changed: ChangedEnd[];
  /** For a link suspect through another: that link's id and the rule that carried it. */
  via?: { linkId: string; rule: SpreadRule };
  /** The objects whose documents changed, at the root of the suspicion. */
  documents: string[];
}

export interface ChangedDocument {
  objectId: string;
  /** Root-relative path of its document file; null for inline content or a title. */
  path: string | null;
  current: string;
  /** The hashes recorded for it by the reviews of the links it makes suspect. */
  reviewed: string[];
  /** Links suspect because of it: directly (at their ends) and through others. */
  directLinks: string[];
  spreadLinks: string[];
}

export interface ChangeImpact {
  /** Links in the project, and how many of them have a stamp. */
  links: number;
  reviewed: number;
  /** Ids of the links never reviewed. */
  unreviewed: string[];
  /** Direct suspects first (file order), then those reached through them (in the order reached). */
  suspect: SuspectLink[];
  changedDocuments: ChangedDocument[];
}

const NONE: readonly ChangedEnd[] = Object.freeze([]);

/** The ends of a stamped link whose documents hash differently now (no allocation when none did: most links). */
function changedEnds(link: ChangeLink, hashes: ReadonlyMap<string, DocumentHash>): readonly ChangedEnd[] {
  const stamp = link.reviewed;
  if (stamp === undefined) return NONE;
  const source = hashes.get(link.source)?.hash;
  const target = hashes.get(link.target)?.hash;
  const sourceChanged = source !== undefined && source !== stamp.source;
  const targetChanged = target !== undefined && target !== stamp.target;
  if (!sourceChanged && !targetChanged) return NONE;
  const changed: ChangedEnd[] = [];
  if (sourceChanged) changed.push({ objectId: link.source, end: "source", reviewed: stamp.source, current: source });
  if (targetChanged) changed.push({ objectId: link.target, end: "target", reviewed: stamp.target, current: target });
  return changed;
}

/** The lookups the spread needs, built once per call. */
class SpreadGraph {
  private readonly ntsByFunctor = new Map<string, NaturalTransformation[]>();
  private readonly componentsByMorphism = new Map<string, { nt: NaturalTransformation; objectId: string }[]>();

  constructor(private readonly index: ProjectIndex) {
    for (const nt of index.naturalTransformations.values()) {
      for (const functorId of new Set([nt.sourceFunctor, nt.targetFunctor])) push(this.ntsByFunctor, functorId, nt);
      for (const [objectId, morphismId] of Object.entries(nt.components)) push(this.componentsByMorphism, morphismId, { nt, objectId });
    }
  }

  /** The ids of the links that `link`'s suspicion reaches, with the rule. */
  *reached(link: ChangeLink): Generator<[string, SpreadRule]> {
    if (link.kind === "mapping") {
      const functor = this.index.functors.get(link.functorId ?? "");
      if (functor === undefined) return;
      for (const next of this.index.functorsFrom.get(functor.targetCategory) ?? []) {
        if (next.objectMapping[link.target] !== undefined) yield [`${next.id}/${link.target}`, "functor"];
      }
      for (const nt of this.ntsByFunctor.get(functor.id) ?? []) yield [`${nt.id}/${link.source}`, "natural-transformation"];
      return;
    }
    const category = this.index.categories.get(link.categoryId ?? "");
    const morphism = category?.morphisms.get(link.morphismId ?? "");
    if (category === undefined || morphism === undefined) return;
    if (link.kind === "morphism") {
      for (const id of composites(category, morphism)) yield [id, "composition"];
      for (const functor of this.index.functorsFrom.get(category.category.id) ?? []) {
        const image = imageOf(functor, morphism.id);
        if (image !== undefined) yield [image, "functor"];
      }
    }
    for (const { nt, objectId } of this.componentsByMorphism.get(morphism.id) ?? []) {
      yield [`${nt.id}/${objectId}`, "natural-transformation"];
    }
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function imageOf(functor: Functor, morphismId: string): string | undefined {
  return Object.hasOwn(functor.morphismMapping, morphismId) ? functor.morphismMapping[morphismId] : undefined;
}

function isIdentity(category: CategoryIndex, morphism: Morphism): boolean {
  return category.identities.get(morphism.source) === morphism;
}

/** The other morphisms that may be a composite with `f` as one factor: A → C for f;g and Z → B for e;f. */
function* composites(category: CategoryIndex, f: Morphism): Generator<string> {
  const between = (from: string, to: string) => (category.outgoing.get(from) ?? []).filter((m) => m.target === to);
  for (const g of category.outgoing.get(f.target) ?? []) {
    if (isIdentity(category, g)) continue;
    for (const h of between(f.source, g.target)) if (h !== f && h !== g && !isIdentity(category, h)) yield h.id;
  }
  for (const e of category.incoming.get(f.source) ?? []) {
    if (isIdentity(category, e)) continue;
    for (const h of between(e.source, f.target)) if (h !== f && h !== e && !isIdentity(category, h)) yield h.id;
  }
}

/**
 * The links of the project, which are suspect and why, and the documents behind them. `hashes`
 * needs the objects at the ends of the stamped links (the others are never compared).
 */
export function findSuspectLinks(
  index: ProjectIndex,
  hashes: ReadonlyMap<string, DocumentHash>,
  links: readonly ChangeLink[] = projectLinks(index),
): ChangeImpact {
  const suspect = new Map<string, SuspectLink>();
  const unreviewed: string[] = [];
  for (const link of links) {
    if (link.reviewed === undefined) {
      unreviewed.push(link.id);
      continue;
    }
    const changed = changedEnds(link, hashes);
    if (changed.length > 0 && !suspect.has(link.id)) {
      suspect.set(link.id, { link, changed: [...changed], documents: [...new Set(changed.map((c) => c.objectId))] });
    }
  }
  const queue = [...suspect.values()];
  // The spread needs links by id; nothing is built when nothing changed (the usual case).
  const byId = new Map<string, ChangeLink>();
  if (queue.length > 0) for (const link of links) if (!byId.has(link.id)) byId.set(link.id, link);
  const graph = new SpreadGraph(index);
  for (let i = 0; i < queue.length; i += 1) {
    const from = queue[i] as SuspectLink;
    for (const [id, rule] of graph.reached(from.link)) {
      const link = byId.get(id);
      if (link === undefined || link.reviewed === undefined || suspect.has(id)) continue;
      const reached: SuspectLink = { link, changed: [], via: { linkId: from.link.id, rule }, documents: from.documents };
      suspect.set(id, reached);
      queue.push(reached);
    }
  }
  return {
    links: links.length,
    reviewed: links.length - unreviewed.length,
    unreviewed,
    suspect: queue,
    changedDocuments: changedDocuments(queue, hashes),
  };
}

function changedDocuments(suspects: readonly SuspectLink[], hashes: ReadonlyMap<string, DocumentHash>): ChangedDocument[] {
  const documents = new Map<string, ChangedDocument>();
  const entry = (objectId: string): ChangedDocument => {
    let found = documents.get(objectId);
    if (found === undefined) {
      const now = hashes.get(objectId);
      found = { objectId, path: now?.path ?? null, current: now?.hash ?? "", reviewed: [], directLinks: [], spreadLinks: [] };
      documents.set(objectId, found);
    }
    return found;
  };
  for (const suspect of suspects) {
    for (const change of suspect.changed) {
      const document = entry(change.objectId);
      if (!document.reviewed.includes(change.reviewed)) document.reviewed.push(change.reviewed);
      if (!document.directLinks.includes(suspect.link.id)) document.directLinks.push(suspect.link.id);
    }
    if (suspect.via !== undefined) for (const objectId of suspect.documents) entry(objectId).spreadLinks.push(suspect.link.id);
  }
  return [...documents.values()];
}

/** The stamp a review of `link` writes now. */
export function stampNow(link: ChangeLink, hashes: ReadonlyMap<string, DocumentHash>): { source: string; target: string } | undefined {
  const source = hashes.get(link.source)?.hash;
  const target = hashes.get(link.target)?.hash;
  return source === undefined || target === undefined ? undefined : { source, target };
}

/**
 * The change impact of a project as it is on disk now: only the documents at the ends of stamped
 * links are read (a project without stamps reads none).
 */
export async function projectImpact(project: CatDocProject): Promise<ChangeImpact> {
  const links = projectLinks(project.index);
  const ends = new Set<string>();
  for (const link of links) {
    if (link.reviewed === undefined) continue;
    ends.add(link.source);
    ends.add(link.target);
  }
  const hashes = ends.size === 0 ? new Map<string, DocumentHash>() : await currentDocumentHashes(project, ends);
  return findSuspectLinks(project.index, hashes, links);
}
