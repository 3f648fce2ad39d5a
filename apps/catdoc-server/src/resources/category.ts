/**
 * `catdoc://categories/{id}`: one category as JSON — its objects and morphisms as category.yaml
 * holds them, and the functors into and out of it. Serialised by core with sorted keys, so the
 * bytes stay the same until category.yaml changes. Above the response budget core refuses the
 * read, naming the tools that page through the category instead.
 */
import { defineResourceTemplate } from "@local-mcp/core";
import type { ResourceTemplateDefinition } from "@local-mcp/core";
import { requireCategory } from "../domain/project-index.js";
import type { ProjectAccess } from "../project-access.js";
import { completeIds, listFromProject, readProject } from "./guarded.js";

export const CATEGORY_URI_PREFIX = "catdoc://categories/";

export function categoryUri(id: string): string {
  return `${CATEGORY_URI_PREFIX}${encodeURIComponent(id)}`;
}

export function categoryResource(access: ProjectAccess): ResourceTemplateDefinition {
  return defineResourceTemplate({
    uriTemplate: `${CATEGORY_URI_PREFIX}{id}`,
    name: "category",
    title: "CatDoc category",
    description: "One category of the CatDoc project as JSON: objects, morphisms and the functors into and out of it.",
    mimeType: "application/json",
    oversize: {
      suggestion: (_uri, { id = "" }) =>
        `Use the tools, which page: catdoc_show_category with categoryId '${id}', then catdoc_list_objects and catdoc_list_morphisms ` +
        `with categoryId '${id}' (limit and offset), or catdoc_get_graph with categoryId '${id}'.`,
    },
    list: () =>
      listFromProject(access, (project) =>
        [...project.index.categories.values()].map(({ category }) => ({
          uri: categoryUri(category.id),
          name: category.id,
          title: category.name,
          description: `${category.objects.length} objects, ${category.morphisms.length} morphisms`,
        })),
      ),
    complete: {
      id: (value) => listFromProject(access, (project) => completeIds(project.index.categories.keys(), value)),
    },
    read: ({ id = "" }) =>
      readProject(access, (project) => {
        const { category } = requireCategory(project.index, id);
        const functors = project.model.functors;
        return {
          json: {
            ...category,
            functorsFrom: functors.filter((f) => f.sourceCategory === category.id).map((f) => f.id),
            functorsTo: functors.filter((f) => f.targetCategory === category.id).map((f) => f.id),
          },
        };
      }),
  });
}
