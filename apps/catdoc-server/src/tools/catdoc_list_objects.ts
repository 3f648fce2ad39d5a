import { eachAtLevel, lazySchema, LeveledResponse, levelIncludes, READ_ONLY } from "@local-mcp/core";
import { z } from "zod";
import { requireCategory } from "../domain/project-index.js";
import { defineCatDocTool } from "./catdoc-tool.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";
import { MetadataOutput } from "./support/schemas.js";

const PAGE = { defaultLimit: 50, maxLimit: 1000 };

const input = lazySchema(() => z.object({
  domain: z.string().min(1).optional().describe("Only objects of this domain (exact match)."),
  categoryId: z.string().min(1).optional().describe("Only objects of this category."),
  ...pagingInput("objects", PAGE),
}));

const output = lazySchema(() => z.object({
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
}));

export const catdocListObjectsTool = defineCatDocTool({
  name: "catdoc_list_objects",
  title: "List objects (documents)",
  description:
    "Lists the objects (documents) of the project in file order, optionally only one domain or one category, a page at a time. " +
    "To find objects by words use catdoc_search; to read one use catdoc_show_object. minimal: the page counts and the object " +
    "ids; standard: adds each object with its category, title and domain; full: adds metadata and the path of the object's document.",
  get input() {
    return input();
  },
  get output() {
    return output();
  },
  annotations: READ_ONLY,
  handler: async ({ domain, categoryId, limit, offset }, { project, level }) => {
    const loaded = await project.load();
    if (categoryId !== undefined) requireCategory(loaded.index, categoryId);
    const all = loaded.model.categories
      .filter((c) => categoryId === undefined || c.id === categoryId)
      .flatMap((c) => c.objects.filter((o) => domain === undefined || o.domain === domain).map((object) => ({ object, categoryId: c.id })));
    const { items, info } = paginate(all, { limit, offset }, PAGE, "objects");
    const documents = levelIncludes(level, "full") ? (await loaded.documents()).byObject : undefined;
    return new LeveledResponse((at) => ({
      minimal: { ...info, ids: items.map(({ object }) => object.id) },
      standard: {
        objects: eachAtLevel(at, items, ({ object, categoryId: home }) => ({
          minimal: { id: object.id, categoryId: home, title: object.title, domain: object.domain },
          full: { metadata: object.metadata, documentPath: documents === undefined ? undefined : (documents.get(object.id)?.path ?? null) },
        })),
      },
    }));
  },
});
