import { DESTRUCTIVE_IDEMPOTENT, eachAtLevel, lazySchema, LeveledResponse, ToolError } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { CatDocError } from "../domain/errors.js";
import type { ReviewedLink } from "../domain/change-impact/index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";

const input = lazySchema(() =>
  z.object({
    ids: z
      .array(z.string().min(1))
      .min(1)
      .max(1000)
      .optional()
      .describe("link ids (morphism, functor/object, nt/object) or a functor/nt id for its links"),
    all: z.boolean().optional().describe("every suspect and never-reviewed link"),
  }),
);

const output = lazySchema(() =>
  z.object({
    written: z.boolean(),
    counts: z.object({ reviewed: z.number().int(), cleared: z.number().int() }),
    reviewed: z.array(z.string()).describe("ids of the links stamped (the first 100)"),
    cleared: z.array(z.string()).describe("links that were suspect only through the reviewed ones (the first 100)"),
    truncated: z.boolean(),
    links: z
      .array(
        z.object({
          id: z.string(),
          kind: z.enum(["morphism", "mapping", "component"]).optional(),
          source: z.string().optional(),
          target: z.string().optional(),
          was: z.enum(["suspect", "unreviewed"]).optional(),
          stamp: z.object({ source: z.string(), target: z.string() }).optional(),
        }),
      )
      .optional()
      .describe("standard: each link reviewed; full adds the hashes recorded"),
    version: z.string().optional(),
  }),
);

/** Links listed in an answer (all of them are stamped; counts has the totals). */
const SHOWN = 100;

/** Where an MCP caller sees the suspect links: catdoc_validate's SUSPECT_LINK warnings. */
const SEE_SUSPECT = "Call catdoc_validate (response_level standard): its SUSPECT_LINK warnings give each suspect link's linkId.";

function linkParts(link: ReviewedLink) {
  return {
    minimal: { id: link.id },
    standard: { kind: link.kind, source: link.source, target: link.target, was: link.was },
    full: { stamp: link.stamp },
  };
}

export function catdocReviewTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_review",
    title: "Mark links reviewed",
    description:
      "Marks suspect links (SUSPECT_LINK from catdoc_validate) reviewed: records their end documents' current hashes. Give ids, or all: true. Returns the ids stamped and those cleared with them.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: DESTRUCTIVE_IDEMPOTENT,
    handler: async ({ ids, all }, { signal }) => {
      if ((all === true) === (ids !== undefined)) {
        throw new ToolError(
          "INVALID_INPUT",
          all === true ? "Give ids or all: true, not both" : "Give the link ids to review, or all: true",
          {
            suggestion: SEE_SUSPECT,
          },
        );
      }
      const { reviewLinks } = await import("../domain/change-impact/index.js");
      const outcome = await reviewLinks(await project.store(), all === true ? { all } : { ids: ids ?? [] }, { signal }).catch(
        (error: unknown) => {
          if (error instanceof CatDocError && (error.code === "NOT_FOUND" || error.code === "CONFLICT")) {
            const through = typeof error.details["review"] === "string" ? `Review '${error.details["review"]}' instead. ` : "";
            throw new ToolError(error.code, error.message, { suggestion: `${through}${SEE_SUSPECT}`, details: error.details });
          }
          throw error;
        },
      );
      const reviewed = outcome.reviewed.slice(0, SHOWN);
      return new LeveledResponse((level) => ({
        minimal: {
          written: outcome.written,
          counts: { reviewed: outcome.reviewed.length, cleared: outcome.cleared.length },
          reviewed: reviewed.map((link) => link.id),
          cleared: outcome.cleared.slice(0, SHOWN),
          truncated: outcome.reviewed.length > SHOWN || outcome.cleared.length > SHOWN,
        },
        standard: { links: eachAtLevel(level, reviewed, linkParts) },
        full: { version: outcome.version },
      }));
    },
  });
}
