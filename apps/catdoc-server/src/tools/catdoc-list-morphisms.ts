import { eachAtLevel, lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireCategory } from "../domain/project-index.js";
import type { Morphism } from "../domain/index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { PageOutput, paginate, pagingInput } from "./support/paging.js";
import { MorphismOutput } from "./support/schemas.js";

const PAGE = { defaultLimit: 50, maxLimit: 1000 };

const input = lazySchema(() =>
  z.object({
    categoryId: z.string().min(1).optional().describe("only this category"),
    objectId: z.string().min(1).optional().describe("only those touching it"),
    includeIdentities: z.boolean().optional().describe("default true"),
    ...pagingInput("morphisms", PAGE),
  }),
);

const output = lazySchema(() =>
  z.object({
    ...PageOutput(),
    ids: z.array(z.string()).describe("The ids of the morphisms on this page, in file order."),
    morphisms: z.array(MorphismOutput()).optional().describe("standard: the morphisms of this page."),
  }),
);

export function catdocListMorphismsTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_list_morphisms",
    title: "List morphisms (relations)",
    description:
      "Lists the morphisms (relations between documents) in file order, of one category or object if asked, a page at a time. To follow paths use catdoc_trace.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ categoryId, objectId, includeIdentities, limit, offset }) => {
      const index = (await project.load()).index;
      if (categoryId !== undefined) requireCategory(index, categoryId);
      const all: { morphism: Morphism; categoryId: string; identity: boolean }[] = [];
      for (const entry of index.categoryList) {
        if (categoryId !== undefined && entry.category.id !== categoryId) continue;
        const identities = new Set([...entry.identities.values()].map((m) => m.id));
        for (const morphism of entry.category.morphisms) {
          if (objectId !== undefined && morphism.source !== objectId && morphism.target !== objectId) continue;
          const identity = identities.has(morphism.id);
          if (identity && includeIdentities === false) continue;
          all.push({ morphism, categoryId: entry.category.id, identity });
        }
      }
      const { items, info } = paginate(all, { limit, offset }, PAGE, "morphisms");
      return new LeveledResponse((level) => ({
        minimal: { ...info, ids: items.map(({ morphism }) => morphism.id) },
        standard: {
          morphisms: eachAtLevel(level, items, ({ morphism: m, categoryId: home, identity }) => ({
            minimal: { id: m.id, source: m.source, target: m.target, categoryId: home, name: m.name, isIdentity: identity },
            full: { metadata: m.metadata },
          })),
        },
      }));
    },
  });
}
