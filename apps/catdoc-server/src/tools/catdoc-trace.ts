import { lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { CatDocInputError } from "../domain/errors.js";
import { categoryOfObject, requireObject } from "../domain/project-index.js";
import { traceAcrossInSteps } from "../domain/trace/across.js";
import { traceBackwardInSteps } from "../domain/trace/backward.js";
import { DEFAULT_MAX_DEPTH, traceObjectsInSteps } from "../domain/trace/paths.js";
import { runInSteps } from "../domain/trace/steps.js";
import type { SkippedStructure } from "../domain/trace/valid-structures.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { ORIGINAL_TRACE_INPUTS, objectNamingOriginalInputs } from "./support/original-inputs.js";
import { TracePathOutput, acrossPathAt, withinPathAt } from "./support/trace-view.js";

const DEFAULT_MAX_PATHS = 10;
const MAX_PATHS = 100;

const input = lazySchema(() =>
  objectNamingOriginalInputs(ORIGINAL_TRACE_INPUTS, {
    sourceId: z.string().min(1),
    targetId: z.string().min(1).optional().describe("required forward"),
    direction: z
      .enum(["forward", "backward"])
      .optional()
      .describe("backward: paths from targetId to sourceId; without targetId, what leads to and covers sourceId"),
    findAll: z.boolean().optional().describe("every simple path, not only the shortest"),
    categoryId: z.string().min(1).optional().describe("default: the source's"),
    targetCategoryId: z.string().min(1).optional().describe("default: the target's"),
    maxDepth: z.number().int().min(1).max(50).optional().describe(`default ${DEFAULT_MAX_DEPTH}`),
    maxPaths: z.number().int().min(1).max(MAX_PATHS).optional().describe(`default ${DEFAULT_MAX_PATHS}`),
    includeInvalid: z.boolean().optional().describe("also follow functors and NTs that break a law"),
  }),
);

const output = lazySchema(() =>
  z.object({
    mode: z
      .enum(["within", "across", "backward"])
      .describe("within: inside one category; across: through functors; backward: what leads to and covers the source."),
    direction: z.literal("backward").optional().describe("Paths run from the target to the source."),
    source: z.string(),
    target: z.string().optional(),
    found: z.boolean(),
    length: z.number().int().nullable().describe("Length of the shortest path; null when none was found."),
    pathCount: z.number().int(),
    truncated: z.boolean(),
    paths: z.array(TracePathOutput()),
    categoryId: z.string().optional(),
    sourceCategory: z.string().optional(),
    targetCategory: z.string().optional(),
    leadsTo: z.array(z.string()).optional().describe("backward: objects with a path to the source, nearest first."),
    coveredBy: z.array(z.string()).optional().describe("backward: objects functors carry onto the source, fewest functors first."),
    skipped: z
      .array(z.object({ kind: z.enum(["functor", "naturalTransformation"]), id: z.string(), codes: z.array(z.string()) }))
      .optional()
      .describe("Functors and NTs met but not followed: they fail validation (their error codes)."),
  }),
);

/** The structures a trace did not follow, when there were any. */
function skippedPart(skipped: SkippedStructure[]): { skipped?: SkippedStructure[] } {
  return skipped.length === 0 ? {} : { skipped };
}

export function catdocTraceTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_trace",
    title: "Trace a path between documents",
    description:
      "Finds how one document leads to another: the shortest path of morphisms between two objects (findAll: every path up to maxDepth), across categories through functors. direction backward: what leads to sourceId and what covers it. found: false is a result.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async (
      { sourceId, targetId, direction, findAll, categoryId, targetCategoryId, maxDepth, maxPaths, includeInvalid },
      { signal, progress },
    ) => {
      const index = (await project.load()).index;
      // The search yields to the event loop between slices: a cancellation or the deadline stops it
      // there, and a client that asked for progress hears how far it has got.
      const steps = { signal, onProgress: (work: number) => progress({ progress: work, message: `searched ${work} steps` }) };
      const limit = maxPaths ?? DEFAULT_MAX_PATHS;
      const backward = direction === "backward";
      if (targetId === undefined) {
        if (!backward)
          throw new CatDocInputError('targetId is required (or direction: "backward" for what leads to sourceId)', { field: "targetId" });
        const result = await runInSteps(
          traceBackwardInSteps(index, sourceId, {
            ...(categoryId === undefined ? {} : { categoryId }),
            ...(targetCategoryId === undefined ? {} : { coveringCategoryId: targetCategoryId }),
            maxDepth: maxDepth ?? DEFAULT_MAX_DEPTH,
            maxPaths: limit,
            includeInvalid: includeInvalid === true,
          }),
          steps,
        );
        const lengths = [...result.leadsTo, ...result.coveredBy].map((p) => p.length);
        return new LeveledResponse((level) => ({
          minimal: {
            mode: "backward",
            direction: "backward",
            source: sourceId,
            found: lengths.length > 0,
            length: lengths.length === 0 ? null : Math.min(...lengths),
            pathCount: lengths.length,
            truncated: result.truncated,
            leadsTo: result.leadsTo.map((p) => p.objectIds[0] ?? ""),
            coveredBy: result.coveredBy.map((p) => p.steps[0]?.fromObject ?? ""),
            paths: [
              ...result.leadsTo.map((p) => withinPathAt(level, index, p, false)),
              ...result.coveredBy.map((p) => acrossPathAt(level, index, p, false)),
            ],
            categoryId: result.categoryId,
            ...skippedPart(result.skipped),
          },
        }));
      }
      // Backward between two objects: the paths from targetId to sourceId, along the arrows.
      // categoryId stays the source's category and targetCategoryId the target's: backwards, the
      // trace goes from the target's category (across, when it is another) into the source's.
      const [from, to] = backward ? [targetId, sourceId] : [sourceId, targetId];
      let [fromCategory, toCategory] = [categoryId, targetCategoryId];
      if (backward) {
        const acrossBack = targetCategoryId !== undefined && targetCategoryId !== categoryId;
        fromCategory = acrossBack ? targetCategoryId : categoryId;
        toCategory = acrossBack ? (categoryId ?? categoryOfObject(index, sourceId)?.category.id) : undefined;
      }
      const asked = { ...(backward ? { direction: "backward" as const } : {}), source: sourceId, target: targetId };
      let across = toCategory;
      if (across === undefined && fromCategory === undefined) {
        const fromHome = categoryOfObject(index, from);
        const toHome = categoryOfObject(index, to);
        if (fromHome !== undefined && toHome !== undefined && fromHome.category.id !== toHome.category.id) across = toHome.category.id;
      }
      if (across !== undefined) {
        requireObject(index, from, fromCategory);
        const result = await runInSteps(
          traceAcrossInSteps(index, from, across, {
            targetObjectId: to,
            maxSteps: maxDepth ?? DEFAULT_MAX_DEPTH,
            maxPaths: limit,
            includeInvalid: includeInvalid === true,
          }),
          steps,
        );
        const paths = findAll === true ? result.paths : result.paths.slice(0, 1);
        return new LeveledResponse((level) => ({
          minimal: {
            mode: "across",
            ...asked,
            found: result.found,
            length: result.paths[0]?.length ?? null,
            pathCount: paths.length,
            truncated: result.truncated || paths.length < result.paths.length,
            paths: paths.map((p, i) => acrossPathAt(level, index, p, i === 0)),
            sourceCategory: result.sourceCategory,
            targetCategory: result.targetCategory,
            ...skippedPart(result.skipped),
          },
        }));
      }
      const result = await runInSteps(
        traceObjectsInSteps(index, from, to, {
          ...(fromCategory === undefined ? {} : { categoryId: fromCategory }),
          all: findAll === true,
          maxDepth: maxDepth ?? DEFAULT_MAX_DEPTH,
          maxPaths: limit,
        }),
        steps,
      );
      return new LeveledResponse((level) => ({
        minimal: {
          mode: "within",
          ...asked,
          found: result.found,
          length: result.shortestPath?.length ?? null,
          pathCount: result.paths.length,
          truncated: result.truncated,
          paths: result.paths.map((p, i) => withinPathAt(level, index, p, i === 0)),
          categoryId: result.categoryId,
        },
      }));
    },
  });
}
