/**
 * `catdoc://graph`: the whole project as one JSON graph — nodes (objects), edges (morphisms,
 * identities included and marked), functors with their mappings and natural transformations
 * with their components. Same bytes until category.yaml changes (sorted keys, model order).
 * Above the response budget (a few hundred objects) core refuses the read, naming the tools that
 * page through the graph instead.
 */
import { defineResource } from "@local-mcp/core";
import type { ResourceDefinition } from "@local-mcp/core";
import type { ProjectAccess } from "../project-access.js";
import { buildGraph } from "../tools/support/graph-view.js";
import { readProject } from "./guarded.js";

export const GRAPH_URI = "catdoc://graph";

export function graphResource(access: ProjectAccess): ResourceDefinition {
  return defineResource({
    uri: GRAPH_URI,
    name: "graph",
    title: "CatDoc graph",
    description: "The whole CatDoc project as a graph: nodes, edges, functors and natural transformations (JSON).",
    mimeType: "application/json",
    oversize: {
      suggestion:
        "Page through the graph with the catdoc_get_graph tool (limit and offset over nodes, edgeLimit, categoryId for one category), " +
        "or list with catdoc_list_categories, catdoc_list_objects and catdoc_list_morphisms.",
    },
    read: () => readProject(access, (project) => ({ json: buildGraph(project.index) })),
  });
}
