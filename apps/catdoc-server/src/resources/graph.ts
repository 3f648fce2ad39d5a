/**
 * `catdoc://graph`: the whole project as one JSON graph — nodes (objects), edges (morphisms,
 * identities included and marked), functors with their mappings and natural transformations
 * with their components. Same bytes until category.yaml changes (sorted keys, model order).
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
    read: () => readProject(access, (project) => ({ json: buildGraph(project.index) })),
  });
}
