import { lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import { z } from "zod";
import { categoryOfObject, requireObject } from "../domain/project-index.js";
import { traceAcrossInSteps } from "../domain/trace/across.js";
import { DEFAULT_MAX_DEPTH, traceObjectsInSteps } from "../domain/trace/paths.js";
import { runInSteps } from "../domain/trace/steps.js";
import { defineCatDocTool } from "./catdoc-tool.js";
import { TracePathOutput, acrossPathAt, withinPathAt } from "./support/trace-view.js";

const DEFAULT_MAX_PATHS = 10;
const MAX_PATHS = 100;

const input = lazySchema(() => z.object({
  sourceId: z.string().min(1).describe("The object the path starts at."),
  targetId: z.string().min(1).describe("The object the path ends at."),
  findAll: z.boolean().optional().describe("List every simple path up to maxDepth, not only the shortest (default false)."),
  categoryId: z.string().min(1).optional().describe("Trace inside this category (default: the source's category)."),
  targetCategoryId: z
    .string()
    .min(1)
    .optional()
    .describe("Trace across categories into this one, through functors (default: the target's category when it differs from the source's)."),
  maxDepth: z.number().int().min(1).max(50).optional().describe(`Longest path, in morphisms or cross-category steps (default ${DEFAULT_MAX_DEPTH}).`),
  maxPaths: z.number().int().min(1).max(MAX_PATHS).optional().describe(`Most paths listed (default ${DEFAULT_MAX_PATHS}).`),
}));

const output = lazySchema(() => z.object({
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
}));

export const catdocTraceTool = defineCatDocTool({
  name: "catdoc_trace",
  title: "Trace a path between documents",
  description:
    "Finds how one document leads to another: the shortest path of morphisms (breadth-first) between two objects of a category, " +
    "or with findAll every simple path up to maxDepth, shortest first. When the two objects are in different categories (or " +
    "targetCategoryId is given) it traces across categories through functors and natural-transformation components, then inside " +
    "the target category. found: false is a normal result. minimal: lengths and ids; standard: adds names; full: adds titles.",
  get input() {
    return input();
  },
  get output() {
    return output();
  },
  annotations: READ_ONLY,
  handler: async ({ sourceId, targetId, findAll, categoryId, targetCategoryId, maxDepth, maxPaths }, { project, signal, progress }) => {
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
      const result = await runInSteps(traceAcrossInSteps(index, sourceId, across, { targetObjectId: targetId, maxSteps: maxDepth ?? DEFAULT_MAX_DEPTH, maxPaths: limit }), steps);
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
          paths: paths.map((p) => acrossPathAt(level, index, p)),
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
        paths: result.paths.map((p) => withinPathAt(level, index, p)),
        categoryId: result.categoryId,
      },
    }));
  },
});
