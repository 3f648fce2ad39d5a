import { eachAtLevel, lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireCategory } from "../domain/project-index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { firstOf, limitInput } from "./support/paging.js";
import { MetadataOutput, MorphismOutput } from "./support/schemas.js";

const SHOWN = { defaultLimit: 100, maxLimit: 1000 };

const input = lazySchema(() =>
  z.object({
    categoryId: z.string().min(1),
    limit: limitInput("objects and morphisms (each)", SHOWN),
  }),
);

const output = lazySchema(() =>
  z.object({
    id: z.string(),
    objectCount: z.number().int(),
    morphismCount: z.number().int(),
    identityCount: z.number().int(),
    objects: z.array(
      z.object({ id: z.string(), title: z.string().optional(), domain: z.string().optional(), metadata: MetadataOutput().optional() }),
    ),
    morphisms: z.array(
      MorphismOutput().partial({ source: true, target: true }).describe("minimal: ids; standard adds source, target, name"),
    ),
    functorsFrom: z.array(z.string()),
    functorsTo: z.array(z.string()),
    truncated: z.boolean(),
    notice: z.string().optional(),
    name: z.string().optional(),
  }),
);

export function catdocShowCategoryTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_show_category",
    title: "Show a category",
    description:
      "Shows one category: its objects and morphisms (the first limit of each; page with catdoc_list_objects and catdoc_list_morphisms) and its functors.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ categoryId, limit }) => {
      const index = (await project.load()).index;
      const entry = requireCategory(index, categoryId);
      const { category, identities } = entry;
      const identityIds = new Set([...identities.values()].map((m) => m.id));
      const objects = firstOf(category.objects, limit ?? SHOWN.defaultLimit);
      const morphisms = firstOf(category.morphisms, limit ?? SHOWN.defaultLimit);
      const truncated = objects.truncated || morphisms.truncated;
      return new LeveledResponse((level) => ({
        minimal: {
          id: category.id,
          objectCount: objects.total,
          morphismCount: morphisms.total,
          identityCount: identityIds.size,
          objects: eachAtLevel(level, objects.items, (o) => ({
            minimal: { id: o.id },
            standard: { title: o.title, domain: o.domain },
            full: { metadata: o.metadata },
          })),
          morphisms: eachAtLevel(level, morphisms.items, (m) => ({
            minimal: { id: m.id },
            standard: { source: m.source, target: m.target, name: m.name, isIdentity: identityIds.has(m.id) },
            full: { metadata: m.metadata },
          })),
          functorsFrom: index.model.functors.filter((f) => f.sourceCategory === category.id).map((f) => f.id),
          functorsTo: index.model.functors.filter((f) => f.targetCategory === category.id).map((f) => f.id),
          truncated,
          ...(truncated
            ? {
                notice: `Showing the first ${limit ?? SHOWN.defaultLimit} objects and morphisms; page through them with catdoc_list_objects and catdoc_list_morphisms (categoryId '${category.id}').`,
              }
            : {}),
        },
        standard: { name: category.name },
      }));
    },
  });
}
