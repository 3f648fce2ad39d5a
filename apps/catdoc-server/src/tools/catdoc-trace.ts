import { lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { categoryOfObject, requireObject } from "../domain/project-index.js";
import { traceAcrossInSteps } from "../domain/trace/across.js";
import { DEFAULT_MAX_DEPTH, traceObjectsInSteps } from "../domain/trace/paths.js";
import { runInSteps } from "../domain/trace/steps.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { ORIGINAL_TRACE_INPUTS, objectNamingOriginalInputs } from "./support/original-inputs.js";
import { TracePathOutput, acrossPathAt, withinPathAt } from "./support/trace-view.js";

const DEFAULT_MAX_PATHS = 10;
const MAX_PATHS = 100;

const input = lazySchema(() =>
  objectNamingOriginalInputs(ORIGINAL_TRACE_INPUTS, {
    sourceId: z.string().min(1),
    targetId: z.string().min(1),
    findAll: z.boolean().optional().describe("every simple path, not only the shortest"),
    categoryId: z.string().min(1).optional().describe("default: the source's"),
    targetCategoryId: z.string().min(1).optional().describe("default: the target's"),
    maxDepth: z.number().int().min(1).max(50).optional().describe(`default ${DEFAULT_MAX_DEPTH}`),
    maxPaths: z.number().int().min(1).max(MAX_PATHS).optional().describe(`default ${DEFAULT_MAX_PATHS}`),
  }),
);

const output = lazySchema(() =>
  z.object({
    mode: z.enum(["within", "across"]).describe("within: inside one category; across: through functors."),
    source: z.string(),
    target: z.string(),
    found: z.boolean(),
    length: z.number().int().nullable().describe("Length of the shortest path; null when none was found."),
    pathCount: z.number().int(),
    truncated: z.boolean(),
    paths: z.array(TracePathOutput()),
    categoryId: z.string().optional(),
    sourceCategory: z.string().optional(),
    targetCategory: z.string().optional(),
  }),
);

export function catdocTraceTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_trace",
    title: "Trace a path between documents",
    description:
      "Finds how one document leads to another: the shortest path of morphisms between two objects (findAll: every path up to maxDepth), across categories through functors. found: false is a result.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ sourceId, targetId, findAll, categoryId, targetCategoryId, maxDepth, maxPaths }, { signal, progress }) => {
      const index = (await project.load()).index;
      // The search yields to the event loop between slices: a cancellation or the deadline stops it
      // there, and a client that asked for progress hears how far it has got.
      const steps = { signal, onProgress: (work: number) => progress({ progress: work, message: `searched ${work} steps` }) };
      const limit = maxPaths ?? DEFAULT_MAX_PATHS;
      let across = targetCategoryId;
      if (across === undefined && categoryId === undefined) {
        const from = categoryOfObject(index, sourceId);
        const to = categoryOfObject(index, targetId);
        if (from !== undefined && to !== undefined && from.category.id !== to.category.id) across = to.category.id;
      }
      if (across !== undefined) {
        requireObject(index, sourceId, categoryId);
        const result = await runInSteps(
          traceAcrossInSteps(index, sourceId, across, {
            targetObjectId: targetId,
            maxSteps: maxDepth ?? DEFAULT_MAX_DEPTH,
            maxPaths: limit,
          }),
          steps,
        );
        const paths = findAll === true ? result.paths : result.paths.slice(0, 1);
        return new LeveledResponse((level) => ({
          minimal: {
            mode: "across",
            source: sourceId,
            target: targetId,
            found: result.found,
            length: result.paths[0]?.length ?? null,
            pathCount: paths.length,
            truncated: result.truncated || paths.length < result.paths.length,
            paths: paths.map((p, i) => acrossPathAt(level, index, p, i === 0)),
            sourceCategory: result.sourceCategory,
            targetCategory: result.targetCategory,
          },
        }));
      }
      const result = await runInSteps(
        traceObjectsInSteps(index, sourceId, targetId, {
          ...(categoryId === undefined ? {} : { categoryId }),
          all: findAll === true,
          maxDepth: maxDepth ?? DEFAULT_MAX_DEPTH,
          maxPaths: limit,
        }),
        steps,
      );
      return new LeveledResponse((level) => ({
        minimal: {
          mode: "within",
          source: sourceId,
          target: targetId,
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
