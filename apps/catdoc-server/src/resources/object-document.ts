/**
 * `catdoc://objects/{id}`: the object's document as Markdown — the file as it is on disk (read
 * on every request, so an edit is seen at once; the same bytes until it changes), or the
 * inline content, or, for an object without a document, a short generated page saying so.
 */
import { defineResourceTemplate } from "@local-mcp/core";
import type { ResourceTemplateDefinition } from "@local-mcp/core";
import { requireObject } from "../domain/project-index.js";
import type { ProjectAccess } from "../project-access.js";
import { completeIds, listFromProject, readProject } from "./guarded.js";

export const OBJECT_URI_PREFIX = "catdoc://objects/";
/** Most objects listed by resources/list. */
const MAX_LISTED = 5_000;

export function objectUri(id: string): string {
  return `${OBJECT_URI_PREFIX}${encodeURIComponent(id)}`;
}

export function objectDocumentResource(access: ProjectAccess): ResourceTemplateDefinition {
  return defineResourceTemplate({
    uriTemplate: `${OBJECT_URI_PREFIX}{id}`,
    name: "object-document",
    title: "CatDoc object document",
    description: "The Markdown document of a CatDoc object (what it is about, in full).",
    mimeType: "text/markdown",
    list: () =>
      listFromProject(access, (project) =>
        project.model.categories
          .flatMap((category) => category.objects.map((object) => ({ object, categoryId: category.id })))
          .slice(0, MAX_LISTED)
          .map(({ object, categoryId }) => ({
            uri: objectUri(object.id),
            name: object.id,
            title: object.title,
            description: `${object.domain} document in category ${categoryId}`,
          })),
      ),
    complete: {
      id: (value) => listFromProject(access, (project) => completeIds(project.index.objectOccurrences.keys(), value)),
    },
    read: ({ id = "" }) =>
      readProject(access, async (project) => {
        const { object, category } = requireObject(project.index, id);
        const document = await access.document(project, id);
        if (document !== null) return { text: document.text };
        return {
          text: `# ${object.title}\n\n_No document is linked to object '${object.id}' (category '${category.category.id}', domain '${object.domain}')._\n`,
        };
      }),
  });
}
