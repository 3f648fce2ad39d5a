import { z } from "zod";
import { requireCategory } from "../domain/index.js";
import { defineCatDocTool, READ_ONLY } from "./catdoc-tool.js";
import { buildGraph } from "./support/graph-view.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";
import { MetadataOutput } from "./support/schemas.js";
import { LeveledView, itemsAt } from "./support/view.js";

const PAGE = { defaultLimit: 200, maxLimit: 2000 };
const EDGES = { defaultLimit: 1000, maxLimit: 10_000 };

export const catdocGetGraphTool = defineCatDocTool({
  name: "catdoc_get_graph",
  title: "Get the document graph",
  description:
    "Returns the graph of the project or one category: objects as nodes, morphisms as edges (between the nodes returned), and " +
    "the functors and natural transformations between categories. Nodes come a page at a time (limit/offset), edges up to " +
    "edgeLimit; for the whole graph at once read the resource catdoc://graph. minimal: ids and endpoints; standard: adds titles, " +
    "domains, names and the functors; full: adds metadata and the functors' object mappings.",
  input: z.object({
    categoryId: z.string().min(1).optional().describe("Only this category (and the functors into or out of it)."),
    includeIdentities: z.boolean().optional().describe("Include identity morphisms as edges (default false)."),
    edgeLimit: z.number().int().min(1).max(EDGES.maxLimit).optional().describe(`Most edges to return (default ${EDGES.defaultLimit}).`),
    ...pagingInput("nodes", PAGE),
  }),
  output: z.object({
    ...PageOutput,
    edgeCount: z.number().int().describe("Edges among all nodes in scope."),
    edgesReturned: z.number().int(),
    edgesTruncated: z.boolean().describe("True when edges among the returned nodes were cut to edgeLimit."),
    nodes: z.array(z.object({ id: z.string(), categoryId: z.string(), title: z.string().optional(), domain: z.string().optional(), metadata: MetadataOutput.optional() })),
    edges: z.array(
      z.object({
        id: z.string(),
        source: z.string(),
        target: z.string(),
        categoryId: z.string(),
        name: z.string().optional(),
        isIdentity: z.boolean().optional(),
        metadata: MetadataOutput.optional(),
      }),
    ),
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
    naturalTransformations: z.array(z.object({ id: z.string(), name: z.string(), sourceFunctor: z.string(), targetFunctor: z.string() })).optional(),
  }),
  annotations: READ_ONLY,
  handler: async ({ categoryId, includeIdentities, edgeLimit, limit, offset }, { project }) => {
    const index = (await project.load()).index;
    if (categoryId !== undefined) requireCategory(index, categoryId);
    const graph = buildGraph(index, { categoryId, includeIdentities: includeIdentities === true });
    const { items: nodes, info } = paginate(graph.nodes, { limit, offset }, PAGE, "nodes");
    const shown = new Set(nodes.map((n) => `${n.categoryId}\u0000${n.id}`));
    const among = graph.edges.filter((e) => shown.has(`${e.categoryId}\u0000${e.source}`) && shown.has(`${e.categoryId}\u0000${e.target}`));
    const edges = among.slice(0, edgeLimit ?? EDGES.defaultLimit);
    const nodeIds = new Set(nodes.map((n) => n.id));
    return new LeveledView((level) => ({
      minimal: {
        ...info,
        edgeCount: graph.edges.length,
        edgesReturned: edges.length,
        edgesTruncated: edges.length < among.length,
        nodes: itemsAt(level, nodes, (n) => ({
          minimal: { id: n.id, categoryId: n.categoryId },
          standard: { title: n.title, domain: n.domain },
          full: { metadata: n.metadata },
        })),
        edges: itemsAt(level, edges, (e) => ({
          minimal: { id: e.id, source: e.source, target: e.target, categoryId: e.categoryId },
          standard: { name: e.name, isIdentity: e.isIdentity },
          full: { metadata: e.metadata },
        })),
      },
      standard: {
        categories: graph.categories,
        functors: itemsAt(level, graph.functors, (f) => ({
          minimal: { id: f.id, name: f.name, sourceCategory: f.sourceCategory, targetCategory: f.targetCategory },
          full: { objectMapping: Object.fromEntries(Object.entries(f.objectMapping).filter(([from]) => nodeIds.has(from))) },
        })),
        naturalTransformations: graph.naturalTransformations.map(({ id, name, sourceFunctor, targetFunctor }) => ({ id, name, sourceFunctor, targetFunctor })),
      },
    }));
  },
});
