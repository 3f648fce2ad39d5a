import { eachAtLevel, lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";

const PAGE = { defaultLimit: 50, maxLimit: 500 };

const input = lazySchema(() => z.object(pagingInput("functors", PAGE)));

const output = lazySchema(() =>
  z.object({
    ...PageOutput(),
    ids: z.array(z.string()).describe("The ids of the functors on this page, in file order."),
    functors: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          sourceCategory: z.string(),
          targetCategory: z.string(),
          mappedObjects: z.number().int(),
          mappedMorphisms: z.number().int(),
          sourceCategoryName: z.string().nullable().optional(),
          targetCategoryName: z.string().nullable().optional(),
        }),
      )
      .optional()
      .describe("standard: the functors of this page."),
  }),
);

export function catdocListFunctorsTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_list_functors",
    title: "List functors",
    description:
      "Lists the functors (maps from one category of documents to another, e.g. requirements → specifications) with their mapping counts.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ limit, offset }) => {
      const index = (await project.load()).index;
      const { items, info } = paginate(index.model.functors, { limit, offset }, PAGE, "functors");
      const nameOf = (id: string) => index.categories.get(id)?.category.name ?? null;
      return new LeveledResponse((level) => ({
        minimal: { ...info, ids: items.map((f) => f.id) },
        standard: {
          functors: eachAtLevel(level, items, (f) => ({
            minimal: {
              id: f.id,
              name: f.name,
              sourceCategory: f.sourceCategory,
              targetCategory: f.targetCategory,
              mappedObjects: Object.keys(f.objectMapping).length,
              mappedMorphisms: Object.keys(f.morphismMapping).length,
            },
            full: { sourceCategoryName: nameOf(f.sourceCategory), targetCategoryName: nameOf(f.targetCategory) },
          })),
        },
      }));
    },
  });
}
