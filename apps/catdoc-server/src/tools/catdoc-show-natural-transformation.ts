import { eachAtLevel, lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireNaturalTransformation } from "../domain/project-index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { limitInput } from "./support/paging.js";

const SHOWN = { defaultLimit: 200, maxLimit: 5000 };

const input = lazySchema(() =>
  z.object({
    id: z.string().min(1).describe("natural transformation id"),
    limit: limitInput("components", SHOWN),
  }),
);

const output = lazySchema(() =>
  z.object({
    id: z.string(),
    sourceFunctor: z.string(),
    targetFunctor: z.string(),
    componentCount: z.number().int(),
    name: z.string().optional(),
    sourceCategory: z.string().nullable().optional(),
    targetCategory: z.string().nullable().optional(),
    components: z
      .array(z.object({ objectId: z.string(), morphismId: z.string(), source: z.string().nullable(), target: z.string().nullable() }))
      .optional(),
    truncated: z.boolean().optional(),
  }),
);

export function catdocShowNaturalTransformationTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_show_natural_transformation",
    title: "Show a natural transformation",
    description:
      "Shows one natural transformation η: F ⇒ G: its functors, categories and components η_A. To check it use catdoc_validate_natural_transformation.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ id, limit }) => {
      const index = (await project.load()).index;
      const nt = requireNaturalTransformation(index, id);
      const F = index.functors.get(nt.sourceFunctor);
      const target = F === undefined ? undefined : index.categories.get(F.targetCategory);
      const entries = Object.entries(nt.components);
      const cap = limit ?? SHOWN.defaultLimit;
      return new LeveledResponse((level) => ({
        minimal: { id: nt.id, sourceFunctor: nt.sourceFunctor, targetFunctor: nt.targetFunctor, componentCount: entries.length },
        standard: { name: nt.name, sourceCategory: F?.sourceCategory ?? null, targetCategory: F?.targetCategory ?? null },
        full: {
          components: eachAtLevel(level, entries.slice(0, cap), ([objectId, morphismId]) => {
            const morphism = target?.morphisms.get(morphismId);
            return { minimal: { objectId, morphismId, source: morphism?.source ?? null, target: morphism?.target ?? null } };
          }),
          truncated: entries.length > cap,
        },
      }));
    },
  });
}
