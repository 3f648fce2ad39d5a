import { eachAtLevel, lazySchema, LeveledResponse, READ_ONLY } from "@local-mcp/core";
import { z } from "zod";
import type { ToolDefinition } from "@local-mcp/core";
import { computeCoverage } from "../domain/coverage.js";
import type { FunctorCoverage } from "../domain/coverage.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { limitInput } from "./support/paging.js";

/** Ids listed per list (uncovered, trivially covered, orphans) and objects detailed per functor. */
const SHOWN = { defaultLimit: 50, maxLimit: 2000 };

const input = lazySchema(() =>
  z.object({
    functorId: z.string().min(1).optional().describe("default: every functor"),
    limit: limitInput("ids per list", SHOWN),
  }),
);

const Percent = lazySchema(() => z.object({ covered: z.number(), triviallyCovered: z.number(), uncovered: z.number() }));

const output = lazySchema(() =>
  z.object({
    functors: z.array(
      z.object({
        id: z.string(),
        sourceCategory: z.string(),
        targetCategory: z.string(),
        objects: z.number().int(),
        covered: z.number().int(),
        triviallyCovered: z.number().int(),
        uncovered: z.number().int(),
        percent: Percent().describe("Shares of the source category's objects, in percent."),
        name: z.string().optional(),
        uncoveredIds: z.array(z.string()).optional(),
        triviallyCoveredIds: z.array(z.string()).optional(),
        detail: z
          .array(
            z.object({
              id: z.string(),
              status: z.enum(["covered", "trivially-covered", "uncovered"]),
              image: z.string().nullable(),
              arrows: z.number().int(),
              preserved: z.number().int(),
              collapsed: z.number().int(),
              unmapped: z.number().int(),
            }),
          )
          .optional()
          .describe("Objects not covered first, then the covered ones."),
        truncated: z.boolean().optional().describe("True when limit cut an id list."),
        detailTruncated: z.boolean().optional(),
      }),
    ),
    categories: z.array(
      z.object({
        id: z.string(),
        objects: z.number().int(),
        orphanCount: z.number().int(),
        name: z.string().optional(),
        orphans: z.array(z.string()).optional(),
        truncated: z.boolean().optional(),
      }),
    ),
  }),
);

const ORDER = { uncovered: 0, "trivially-covered": 1, covered: 2 } as const;

function functorParts(coverage: FunctorCoverage, cap: number) {
  const detail = [...coverage.detail].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  return {
    minimal: {
      id: coverage.functorId,
      sourceCategory: coverage.sourceCategory,
      targetCategory: coverage.targetCategory,
      objects: coverage.objects,
      covered: coverage.covered,
      triviallyCovered: coverage.triviallyCovered,
      uncovered: coverage.uncovered,
      percent: coverage.percent,
    },
    standard: {
      name: coverage.name,
      uncoveredIds: coverage.uncoveredIds.slice(0, cap),
      triviallyCoveredIds: coverage.triviallyCoveredIds.slice(0, cap),
      truncated: Math.max(coverage.uncoveredIds.length, coverage.triviallyCoveredIds.length) > cap,
    },
    full: { detail: detail.slice(0, cap), detailTruncated: detail.length > cap },
  };
}

export function catdocCoverageTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_coverage",
    title: "Coverage of functors",
    description:
      "Answers which documents a functor leaves uncovered (e.g. requirements with no test): per functor, each source object covered, trivially covered (its arrows collapse to identities) or uncovered (not mapped), with percentages; per category, orphans. Works on functors that do not validate yet.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ functorId, limit }) => {
      const index = (await project.load()).index;
      const report = computeCoverage(index, functorId === undefined ? {} : { functorId });
      const cap = limit ?? SHOWN.defaultLimit;
      return new LeveledResponse((level) => ({
        minimal: {
          functors: eachAtLevel(level, report.functors, (coverage) => functorParts(coverage, cap)),
          categories: eachAtLevel(level, report.categories, (category) => ({
            minimal: { id: category.categoryId, objects: category.objects, orphanCount: category.orphans.length },
            standard: { name: category.name, orphans: category.orphans.slice(0, cap), truncated: category.orphans.length > cap },
          })),
        },
      }));
    },
  });
}
