/**
 * Graph data for drawing: objects as nodes, morphisms as edges — the original dashboard's
 * `/api/graph` shape (`{nodes, edges}`; node `{id, label, type, domain, categoryId}`, edge
 * `{id, source, target, label, type}`), plus `isIdentity` on morphism edges and, on request,
 * functor edges from each mapped object to its image. `catdoc graph` prints the same data as
 * JSON, Mermaid or Graphviz DOT.
 */
import type { ProjectIndex } from "../domain/index.js";
import { categoriesOf, isIdentityIn } from "./views.js";

export interface GraphNode {
  id: string;
  label: string;
  type: "object";
  domain: string;
  categoryId: string;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  label: string;
  type: "morphism" | "functor";
  /** The morphism's category, or the functor's source category. */
  categoryId: string;
  /** Morphism edges: whether it is the identity of its object. */
  isIdentity: boolean;
  /** Functor edges: the functor's id (the edge id is `<functor>:<object>`). */
  functorId?: string;
}

export interface GraphCategory {
  id: string;
  name: string;
}

export interface GraphData {
  categories: GraphCategory[];
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphOptions {
  /** One category only (NOT_FOUND when unknown); default every category. */
  categoryId?: string;
  /** Add an edge A → F(A) for every functor F whose source and target categories are both drawn. */
  functors?: boolean;
}

export function buildGraph(index: ProjectIndex, options: GraphOptions = {}): GraphData {
  const entries = categoriesOf(index, options.categoryId);
  const drawn = new Set(entries.map((entry) => entry.category.id));
  const categories: GraphCategory[] = [];
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const entry of entries) {
    const { category } = entry;
    categories.push({ id: category.id, name: category.name });
    for (const object of category.objects) {
      nodes.push({ id: object.id, label: object.title, type: "object", domain: object.domain, categoryId: category.id });
    }
    for (const morphism of category.morphisms) {
      edges.push({
        id: morphism.id,
        source: morphism.source,
        target: morphism.target,
        label: morphism.name,
        type: "morphism",
        categoryId: category.id,
        isIdentity: isIdentityIn(entry, morphism),
      });
    }
  }
  if (options.functors === true) {
    for (const functor of index.model.functors) {
      if (!drawn.has(functor.sourceCategory) || !drawn.has(functor.targetCategory)) continue;
      for (const [from, to] of Object.entries(functor.objectMapping)) {
        edges.push({
          id: `${functor.id}:${from}`,
          source: from,
          target: to,
          label: functor.name,
          type: "functor",
          categoryId: functor.sourceCategory,
          isIdentity: false,
          functorId: functor.id,
        });
      }
    }
  }
  return { categories, nodes, edges };
}
