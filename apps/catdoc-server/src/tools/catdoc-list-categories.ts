import { eachAtLevel, lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";
import { FORMAT_INPUT } from "./support/schemas.js";

const PAGE = { defaultLimit: 50, maxLimit: 500 };

const input = lazySchema(() => z.object({ format: FORMAT_INPUT(), ...pagingInput("categories", PAGE) }));

const output = lazySchema(() =>
  z.object({
    ...PageOutput(),
    ids: z.array(z.string()).describe("The ids of the categories on this page, in file order."),
    categories: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          objectCount: z.number().int(),
          morphismCount: z.number().int(),
          functorsFrom: z.array(z.string()).optional(),
          functorsTo: z.array(z.string()).optional(),
        }),
      )
      .optional()
      .describe("standard: the categories of this page."),
  }),
);

export function catdocListCategoriesTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_list_categories",
    title: "List categories",
    description:
      "Lists the categories of the project and their ids: start here to learn the ids other tools take. Standard adds names and object and morphism counts.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ limit, offset }) => {
      const loaded = await project.load();
      const { items, info } = paginate(loaded.model.categories, { limit, offset }, PAGE, "categories");
      const functors = loaded.model.functors;
      return new LeveledResponse((level) => ({
        minimal: { ...info, ids: items.map((c) => c.id) },
        standard: {
          categories: eachAtLevel(level, items, (c) => ({
            minimal: { id: c.id, name: c.name, objectCount: c.objects.length, morphismCount: c.morphisms.length },
            full: {
              functorsFrom: functors.filter((f) => f.sourceCategory === c.id).map((f) => f.id),
              functorsTo: functors.filter((f) => f.targetCategory === c.id).map((f) => f.id),
            },
          })),
        },
      }));
    },
  });
}
