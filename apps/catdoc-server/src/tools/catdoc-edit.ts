import { DESTRUCTIVE, eachAtLevel, lazySchema, LeveledResponse } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { EDIT_KINDS, EDIT_OPS } from "../domain/authoring/edit-request.js";
import type { ValidationIssue } from "../domain/validate/issues.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";

const input = lazySchema(() =>
  z.object({
    op: z.enum(EDIT_OPS),
    kind: z.enum(EDIT_KINDS),
    id: z.string().min(1),
    fields: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "add/update: category {name}; object {category,title,domain,content?,metadata?}; morphism {category,name,source,target,composite?,metadata?}; functor {name,sourceCategory,targetCategory,objectMapping?,morphismMapping?}; nt {name,sourceFunctor,targetFunctor,components?}; null removes",
      ),
    newId: z.string().min(1).optional().describe("rename"),
    from: z.string().min(1).optional().describe("map/remove one entry: functor source object/morphism, nt object"),
    to: z.string().min(1).optional().describe("map: image (omitted: the only candidate)"),
    cascade: z.boolean().optional().describe("remove what refers to it too"),
    force: z.boolean().optional().describe("save despite law violations"),
    dryRun: z.boolean().optional(),
  }),
);

const IssueLine = lazySchema(() => z.object({ code: z.string(), message: z.string() }));

const output = lazySchema(() =>
  z.object({
    written: z.boolean(),
    dryRun: z.boolean(),
    counts: z.object({ changes: z.number().int(), violations: z.number().int(), gaps: z.number().int(), errorsAfter: z.number().int() }),
    ids: z.array(z.string()).describe("the ids the changes name (the first 100)"),
    changes: z.array(z.string()).optional().describe("standard: one line per change (the first 100)"),
    violations: z.array(IssueLine()).optional().describe("standard: law violations saved with force"),
    gaps: z.array(IssueLine()).optional().describe("standard: new unmapped objects/morphisms, missing components (the first 20)"),
    version: z.string().optional(),
    previousVersion: z.string().optional(),
  }),
);

/** Ids and change lines listed in an answer (counts has the totals). */
const SHOWN = 100;
/** Gaps listed in an answer. */
const GAPS_SHOWN = 20;

function issueLine(issue: ValidationIssue) {
  return { minimal: { code: issue.code, message: issue.message } };
}

export function catdocEditTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_edit",
    title: "Edit the category",
    description:
      "Adds, updates, removes or renames (everywhere used) a category, object, morphism, functor or nt (natural transformation); op map sets a functor image or nt component. A new law violation is refused unless force. Returns one line per change.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: DESTRUCTIVE,
    handler: async ({ force, dryRun, ...request }, { signal }) => {
      const { applyEdit } = await import("../domain/authoring/apply-edit.js");
      const outcome = await applyEdit(await project.store(), request, {
        ...(force === undefined ? {} : { force }),
        ...(dryRun === undefined ? {} : { dryRun }),
        signal,
      });
      return new LeveledResponse((level) => ({
        minimal: {
          written: outcome.written,
          dryRun: outcome.dryRun,
          counts: {
            changes: outcome.changes.length,
            violations: outcome.violations.length,
            gaps: outcome.gaps.length,
            errorsAfter: outcome.errorsAfter,
          },
          ids: outcome.ids.slice(0, SHOWN),
        },
        standard: {
          changes: outcome.changes.slice(0, SHOWN),
          violations: eachAtLevel(level, outcome.violations, issueLine),
          gaps: eachAtLevel(level, outcome.gaps.slice(0, GAPS_SHOWN), issueLine),
        },
        full: { version: outcome.version, previousVersion: outcome.previousVersion },
      }));
    },
  });
}
