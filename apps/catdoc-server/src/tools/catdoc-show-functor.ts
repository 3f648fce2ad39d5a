import { lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireFunctor } from "../domain/project-index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { limitInput } from "./support/paging.js";

const SHOWN = { defaultLimit: 200, maxLimit: 5000 };

function firstEntries(mapping: Record<string, string>, limit: number): Record<string, string> {
  return Object.fromEntries(Object.entries(mapping).slice(0, limit));
}

const input = lazySchema(() =>
  z.object({
    functorId: z.string().min(1),
    limit: limitInput("mapping entries (each mapping)", SHOWN),
  }),
);

const output = lazySchema(() =>
  z.object({
    id: z.string(),
    sourceCategory: z.string(),
    targetCategory: z.string(),
    mappedObjects: z.number().int(),
    mappedMorphisms: z.number().int(),
    naturalTransformations: z.array(z.string()),
    name: z.string().optional(),
    sourceCategoryName: z.string().nullable().optional(),
    targetCategoryName: z.string().nullable().optional(),
    objectMapping: z.record(z.string(), z.string()).optional(),
    morphismMapping: z.record(z.string(), z.string()).optional(),
    truncated: z.boolean().optional(),
  }),
);

export function catdocShowFunctorTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_show_functor",
    title: "Show a functor",
    description:
      "Shows one functor F: C → D: its categories and the natural transformations using it; full adds its object and morphism mappings.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ functorId, limit }) => {
      const index = (await project.load()).index;
      const functor = requireFunctor(index, functorId);
      const cap = limit ?? SHOWN.defaultLimit;
      const objectCount = Object.keys(functor.objectMapping).length;
      const morphismCount = Object.keys(functor.morphismMapping).length;
      const nameOf = (id: string) => index.categories.get(id)?.category.name ?? null;
      return new LeveledResponse(() => ({
        minimal: {
          id: functor.id,
          sourceCategory: functor.sourceCategory,
          targetCategory: functor.targetCategory,
          mappedObjects: objectCount,
          mappedMorphisms: morphismCount,
          naturalTransformations: index.model.naturalTransformations
            .filter((nt) => nt.sourceFunctor === functor.id || nt.targetFunctor === functor.id)
            .map((nt) => nt.id),
        },
        standard: {
          name: functor.name,
          sourceCategoryName: nameOf(functor.sourceCategory),
          targetCategoryName: nameOf(functor.targetCategory),
        },
        full: {
          objectMapping: firstEntries(functor.objectMapping, cap),
          morphismMapping: firstEntries(functor.morphismMapping, cap),
          truncated: objectCount > cap || morphismCount > cap,
        },
      }));
    },
  });
}
