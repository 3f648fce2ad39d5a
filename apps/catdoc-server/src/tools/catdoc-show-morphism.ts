import { lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireMorphism } from "../domain/project-index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { MetadataOutput } from "./support/schemas.js";

const input = lazySchema(() =>
  z.object({
    morphismId: z.string().min(1),
    categoryId: z.string().min(1).optional().describe("default: where it is defined"),
  }),
);

const output = lazySchema(() =>
  z.object({
    id: z.string(),
    categoryId: z.string(),
    source: z.string(),
    target: z.string(),
    isIdentity: z.boolean(),
    functorCount: z.number().int().describe("Functors out of its category; functorImages (standard) has each one's image."),
    functorImages: z.array(z.object({ functorId: z.string(), image: z.string().nullable() })).optional(),
    name: z.string().optional(),
    sourceTitle: z.string().optional(),
    targetTitle: z.string().optional(),
    metadata: MetadataOutput().optional(),
  }),
);

export function catdocShowMorphismTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_show_morphism",
    title: "Show a morphism",
    description:
      "Shows one morphism (a relation source → target between two documents): its category, whether it is an identity, and its images under functors.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ morphismId, categoryId }) => {
      const index = (await project.load()).index;
      const { morphism, category } = requireMorphism(index, morphismId, categoryId);
      const isIdentity = category.identities.get(morphism.source)?.id === morphism.id;
      const functorImages = (index.functorsFrom.get(category.category.id) ?? []).map((f) => ({
        functorId: f.id,
        image: f.morphismMapping[morphism.id] ?? null,
      }));
      return new LeveledResponse(() => ({
        minimal: {
          id: morphism.id,
          categoryId: category.category.id,
          source: morphism.source,
          target: morphism.target,
          isIdentity,
          functorCount: functorImages.length,
        },
        // Each functor's image: one entry per functor out of the category (minimal says how many).
        standard: {
          functorImages,
          name: morphism.name,
          sourceTitle: category.objects.get(morphism.source)?.title,
          targetTitle: category.objects.get(morphism.target)?.title,
        },
        full: { metadata: morphism.metadata ?? {} },
      }));
    },
  });
}
