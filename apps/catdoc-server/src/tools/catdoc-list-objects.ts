import { eachAtLevel, lazySchema, LeveledResponse, levelIncludes, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireCategory } from "../domain/project-index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";
import { MetadataOutput } from "./support/schemas.js";

const PAGE = { defaultLimit: 50, maxLimit: 1000 };

const input = lazySchema(() =>
  z.object({
    domain: z.string().min(1).optional().describe("only this domain"),
    categoryId: z.string().min(1).optional().describe("only this category"),
    ...pagingInput("objects", PAGE),
  }),
);

const output = lazySchema(() =>
  z.object({
    ...PageOutput(),
    ids: z.array(z.string()).describe("The ids of the objects on this page, in file order."),
    objects: z
      .array(
        z.object({
          id: z.string(),
          categoryId: z.string(),
          title: z.string(),
          domain: z.string(),
          metadata: MetadataOutput().optional(),
          documentPath: z.string().nullable().optional(),
        }),
      )
      .optional()
      .describe("standard: the objects of this page."),
  }),
);

export function catdocListObjectsTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_list_objects",
    title: "List objects (documents)",
    description:
      "Lists the objects (documents) in file order, of one domain or category if asked, a page at a time. To find them by words use catdoc_search.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ domain, categoryId, limit, offset }, { level }) => {
      const loaded = await project.load();
      if (categoryId !== undefined) requireCategory(loaded.index, categoryId);
      const all = loaded.model.categories
        .filter((c) => categoryId === undefined || c.id === categoryId)
        .flatMap((c) =>
          c.objects.filter((o) => domain === undefined || o.domain === domain).map((object) => ({ object, categoryId: c.id })),
        );
      const { items, info } = paginate(all, { limit, offset }, PAGE, "objects");
      const documents = levelIncludes(level, "full") ? (await loaded.documents()).byObject : undefined;
      return new LeveledResponse((at) => ({
        minimal: { ...info, ids: items.map(({ object }) => object.id) },
        standard: {
          objects: eachAtLevel(at, items, ({ object, categoryId: home }) => ({
            minimal: { id: object.id, categoryId: home, title: object.title, domain: object.domain },
            full: {
              metadata: object.metadata,
              documentPath: documents === undefined ? undefined : (documents.get(object.id)?.path ?? null),
            },
          })),
        },
      }));
    },
  });
}
