/**
 * The graph of a project (or one category): objects as nodes, morphisms as edges, with the
 * functors and natural transformations between categories. `buildGraph` gives all of it (the
 * `catdoc://graph` resource); the `catdoc_get_graph` tool cuts it to pages.
 */
import { isMarkedIdentity } from "../../domain/identity.js";
import type { CatDocModel, CatDocObject, Morphism, ProjectIndex } from "../../domain/index.js";

export interface GraphNode {
  id: string;
  categoryId: string;
  title: string;
  domain: string;
  metadata?: Record<string, unknown>;
}

export interface GraphEdge {
  id: string;
  categoryId: string;
  source: string;
  target: string;
  name: string;
  isIdentity: boolean;
  metadata?: Record<string, unknown>;
}

export interface GraphFunctor {
  id: string;
  name: string;
  sourceCategory: string;
  targetCategory: string;
  objectMapping: Record<string, string>;
  morphismMapping: Record<string, string>;
}

export interface GraphNaturalTransformation {
  id: string;
  name: string;
  sourceFunctor: string;
  targetFunctor: string;
  components: Record<string, string>;
}

export interface Graph {
  categories: { id: string; name: string }[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  functors: GraphFunctor[];
  naturalTransformations: GraphNaturalTransformation[];
}

export interface GraphOptions {
  /** Only this category's objects and morphisms, and the functors into or out of it. */
  categoryId?: string | undefined;
  /** Include identity morphisms as edges (default true). */
  includeIdentities?: boolean | undefined;
}

function node(object: CatDocObject, categoryId: string): GraphNode {
  return {
    id: object.id,
    categoryId,
    title: object.title,
    domain: object.domain,
    ...(object.metadata ? { metadata: object.metadata } : {}),
  };
}

function edge(morphism: Morphism, categoryId: string, identity: boolean): GraphEdge {
  return {
    id: morphism.id,
    categoryId,
    source: morphism.source,
    target: morphism.target,
    name: morphism.name,
    isIdentity: identity,
    ...(morphism.metadata ? { metadata: morphism.metadata } : {}),
  };
}

export function buildGraph(index: ProjectIndex, options: GraphOptions = {}): Graph {
  const model: CatDocModel = index.model;
  const chosen = index.categoryList.filter((entry) => options.categoryId === undefined || entry.category.id === options.categoryId);
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const entry of chosen) {
    const identities = new Set([...entry.identities.values()].map((m) => m.id));
    for (const object of entry.category.objects) nodes.push(node(object, entry.category.id));
    for (const morphism of entry.category.morphisms) {
      const identity = identities.has(morphism.id) || (isMarkedIdentity(morphism) && morphism.source === morphism.target);
      if (identity && options.includeIdentities === false) continue;
      edges.push(edge(morphism, entry.category.id, identity));
    }
  }
  const touches = (source: string, target: string) =>
    options.categoryId === undefined || source === options.categoryId || target === options.categoryId;
  const functors = model.functors.filter((f) => touches(f.sourceCategory, f.targetCategory));
  const functorIds = new Set(functors.map((f) => f.id));
  return {
    categories: chosen.map((entry) => ({ id: entry.category.id, name: entry.category.name })),
    nodes,
    edges,
    functors: functors.map((f) => ({
      id: f.id,
      name: f.name,
      sourceCategory: f.sourceCategory,
      targetCategory: f.targetCategory,
      objectMapping: f.objectMapping,
      morphismMapping: f.morphismMapping,
    })),
    naturalTransformations: model.naturalTransformations
      .filter((nt) => options.categoryId === undefined || functorIds.has(nt.sourceFunctor) || functorIds.has(nt.targetFunctor))
      .map((nt) => ({
        id: nt.id,
        name: nt.name,
        sourceFunctor: nt.sourceFunctor,
        targetFunctor: nt.targetFunctor,
        components: nt.components,
      })),
  };
}
