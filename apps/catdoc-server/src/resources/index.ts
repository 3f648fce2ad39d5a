/** The resources of catdoc-mcp: documents, categories and the whole graph. */
import type { ResourceDefinition, ResourceTemplateDefinition } from "@local-mcp/core";
import type { ProjectAccess } from "../project-access.js";
import { categoryResource } from "./category.js";
import { graphResource } from "./graph.js";
import { objectDocumentResource } from "./object-document.js";

export { CATEGORY_URI_PREFIX, categoryUri } from "./category.js";
export { GRAPH_URI } from "./graph.js";
export { OBJECT_URI_PREFIX, objectUri } from "./object-document.js";

export function catdocResources(access: ProjectAccess): {
  resources: ResourceDefinition[];
  resourceTemplates: ResourceTemplateDefinition[];
} {
  return {
    resources: [graphResource(access)],
    resourceTemplates: [objectDocumentResource(access), categoryResource(access)],
  };
}
