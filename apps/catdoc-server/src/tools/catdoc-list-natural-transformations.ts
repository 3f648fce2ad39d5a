import { eachAtLevel, lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";

const PAGE = { defaultLimit: 50, maxLimit: 500 };

const input = lazySchema(() => z.object(pagingInput("natural transformations", PAGE)));

const output = lazySchema(() =>
  z.object({
    ...PageOutput(),
    ids: z.array(z.string()).describe("The ids of the natural transformations on this page, in file order."),
    naturalTransformations: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          sourceFunctor: z.string(),
          targetFunctor: z.string(),
          componentCount: z.number().int(),
          sourceCategory: z.string().nullable().optional(),
          targetCategory: z.string().nullable().optional(),
        }),
      )
      .optional()
      .describe("standard: the natural transformations of this page."),
  }),
);

export function catdocListNaturalTransformationsTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_list_natural_transformations",
    title: "List natural transformations",
    description:
      "Lists the natural transformations η: F ⇒ G (a component η_A: F(A) → G(A) per object, relating two functors between the same categories).",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ limit, offset }) => {
      const index = (await project.load()).index;
      const { items, info } = paginate(index.model.naturalTransformations, { limit, offset }, PAGE, "natural transformations");
      return new LeveledResponse((level) => ({
        minimal: { ...info, ids: items.map((nt) => nt.id) },
        standard: {
          naturalTransformations: eachAtLevel(level, items, (nt) => {
            const F = index.functors.get(nt.sourceFunctor);
            return {
              minimal: {
                id: nt.id,
                name: nt.name,
                sourceFunctor: nt.sourceFunctor,
                targetFunctor: nt.targetFunctor,
                componentCount: Object.keys(nt.components).length,
              },
              full: { sourceCategory: F?.sourceCategory ?? null, targetCategory: F?.targetCategory ?? null },
            };
          }),
        },
      }));
    },
  });
}
