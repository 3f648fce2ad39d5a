import { z } from "zod";
import { defineCatDocTool, READ_ONLY } from "./catdoc-tool.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";
import { LeveledView, itemsAt } from "./support/view.js";

const PAGE = { defaultLimit: 50, maxLimit: 500 };

export const catdocListFunctorsTool = defineCatDocTool({
  name: "catdoc_list_functors",
  title: "List functors",
  description:
    "Lists the functors (structure-preserving maps from one category of documents to another, e.g. requirements → specifications) " +
    "with how many objects and morphisms each maps. Show one with catdoc_show_functor, check it with catdoc_validate_functor. " +
    "minimal: ids, categories and counts; standard: adds names; full: adds the names of the categories.",
  input: z.object(pagingInput("functors", PAGE)),
  output: z.object({
    ...PageOutput,
    functors: z.array(
      z.object({
        id: z.string(),
        sourceCategory: z.string(),
        targetCategory: z.string(),
        mappedObjects: z.number().int(),
        mappedMorphisms: z.number().int(),
        name: z.string().optional(),
        sourceCategoryName: z.string().nullable().optional(),
        targetCategoryName: z.string().nullable().optional(),
      }),
    ),
  }),
  annotations: READ_ONLY,
  handler: async ({ limit, offset }, { project }) => {
    const index = (await project.load()).index;
    const { items, info } = paginate(index.model.functors, { limit, offset }, PAGE, "functors");
    const nameOf = (id: string) => index.categories.get(id)?.category.name ?? null;
    return new LeveledView((level) => ({
      minimal: {
        ...info,
        functors: itemsAt(level, items, (f) => ({
          minimal: {
            id: f.id,
            sourceCategory: f.sourceCategory,
            targetCategory: f.targetCategory,
            mappedObjects: Object.keys(f.objectMapping).length,
            mappedMorphisms: Object.keys(f.morphismMapping).length,
          },
          standard: { name: f.name },
          full: { sourceCategoryName: nameOf(f.sourceCategory), targetCategoryName: nameOf(f.targetCategory) },
        })),
      },
    }));
  },
});
