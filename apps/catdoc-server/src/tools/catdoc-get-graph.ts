import { DEFAULT_MAX_RESPONSE_TOKENS, eachAtLevel, lazySchema, LeveledResponse, READ_ONLY, tokensAboveBudget } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireCategory } from "../domain/project-index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { buildGraph } from "./support/graph-view.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";
import { MetadataOutput } from "./support/schemas.js";

const PAGE = { defaultLimit: 200, maxLimit: 2000 };
const EDGES = { defaultLimit: 1000, maxLimit: 10_000 };
/**
 * A page asked for without a limit holds up to 200 nodes, halved until its full answer is within
 * this many o200k tokens (a 300-object project's 200 nodes and their edges were above 25,000 at
 * standard): the default page fits at every level, is the same page at every level (so minimal ⊆
 * standard ⊆ full holds), and nextOffset goes on from it.
 */
const DEFAULT_PAGE_TOKENS = Math.floor(DEFAULT_MAX_RESPONSE_TOKENS * 0.8);

const input = lazySchema(() =>
  z.object({
    categoryId: z.string().min(1).optional().describe("only this category"),
    includeIdentities: z.boolean().optional().describe("default false"),
    edgeLimit: z.number().int().min(1).max(EDGES.maxLimit).optional().describe(`default ${EDGES.defaultLimit}`),
    ...pagingInput("nodes", PAGE),
  }),
);

const output = lazySchema(() =>
  z.object({
    ...PageOutput(),
    edgeCount: z.number().int().describe("Edges among all nodes in scope."),
    edgesReturned: z.number().int().describe("Edges among this page's nodes, as many as the edges list holds (at standard)."),
    edgesTruncated: z.boolean().describe("True when edges among the returned nodes were cut to edgeLimit."),
    nodeIds: z.array(z.string()).describe("The ids of this page's nodes (objects), in file order."),
    nodes: z
      .array(
        z.object({ id: z.string(), categoryId: z.string(), title: z.string(), domain: z.string(), metadata: MetadataOutput().optional() }),
      )
      .optional()
      .describe("standard: this page's nodes."),
    edges: z
      .array(
        z.object({
          id: z.string(),
          source: z.string(),
          target: z.string(),
          categoryId: z.string(),
          name: z.string(),
          isIdentity: z.boolean(),
          metadata: MetadataOutput().optional(),
        }),
      )
      .optional()
      .describe("standard: the morphisms among this page's nodes, up to edgeLimit."),
    categories: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
    functors: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          sourceCategory: z.string(),
          targetCategory: z.string(),
          objectMapping: z.record(z.string(), z.string()).optional(),
        }),
      )
      .optional(),
    naturalTransformations: z
      .array(z.object({ id: z.string(), name: z.string(), sourceFunctor: z.string(), targetFunctor: z.string() }))
      .optional(),
  }),
);

export function catdocGetGraphTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_get_graph",
    title: "Get the document graph",
    description:
      "The graph of the project or one category: objects as nodes (a page at a time), the morphisms among them as edges, and the functors and natural transformations. A small project's whole graph: resource catdoc://graph.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ categoryId, includeIdentities, edgeLimit, limit, offset }) => {
      const index = (await project.load()).index;
      if (categoryId !== undefined) requireCategory(index, categoryId);
      const graph = buildGraph(index, { categoryId, includeIdentities: includeIdentities === true });
      let pageSize = limit ?? PAGE.defaultLimit;
      for (;;) {
        const response = graphPage(graph, { limit: pageSize, offset, edgeLimit });
        if (limit !== undefined || pageSize === 1) return response;
        if ((await tokensAboveBudget(JSON.stringify(response.toResponse("full")), DEFAULT_PAGE_TOKENS)) === undefined) return response;
        pageSize = Math.max(1, Math.floor(pageSize / 2));
      }
    },
  });
}

/** One page of the graph: `limit` nodes from `offset` and the edges among them (up to `edgeLimit`). */
function graphPage(
  graph: ReturnType<typeof buildGraph>,
  { limit, offset, edgeLimit }: { limit: number; offset: number | undefined; edgeLimit: number | undefined },
): LeveledResponse {
  const { items: nodes, info } = paginate(graph.nodes, { limit, offset }, PAGE, "nodes");
  const shown = new Set(nodes.map((n) => `${n.categoryId}\u0000${n.id}`));
  const among = graph.edges.filter((e) => shown.has(`${e.categoryId}\u0000${e.source}`) && shown.has(`${e.categoryId}\u0000${e.target}`));
  const edges = among.slice(0, edgeLimit ?? EDGES.defaultLimit);
  const shownIds = new Set(nodes.map((n) => n.id));
  return new LeveledResponse((level) => ({
    minimal: {
      ...info,
      edgeCount: graph.edges.length,
      edgesReturned: edges.length,
      edgesTruncated: edges.length < among.length,
      nodeIds: nodes.map((n) => n.id),
    },
    standard: {
      nodes: eachAtLevel(level, nodes, (n) => ({
        minimal: { id: n.id, categoryId: n.categoryId, title: n.title, domain: n.domain },
        full: { metadata: n.metadata },
      })),
      edges: eachAtLevel(level, edges, (e) => ({
        minimal: { id: e.id, source: e.source, target: e.target, categoryId: e.categoryId, name: e.name, isIdentity: e.isIdentity },
        full: { metadata: e.metadata },
      })),
      categories: graph.categories,
      functors: eachAtLevel(level, graph.functors, (f) => ({
        minimal: { id: f.id, name: f.name, sourceCategory: f.sourceCategory, targetCategory: f.targetCategory },
        full: { objectMapping: Object.fromEntries(Object.entries(f.objectMapping).filter(([from]) => shownIds.has(from))) },
      })),
      naturalTransformations: graph.naturalTransformations.map(({ id, name, sourceFunctor, targetFunctor }) => ({
        id,
        name,
        sourceFunctor,
        targetFunctor,
      })),
    },
  }));
}
