import { READ_ONLY, lazySchema } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { ValidationOutput, validateProjectOnce, validationPagingInput, validationView, validators } from "./support/validation-view.js";

const input = lazySchema(() =>
  z.object({
    categoryId: z.string().min(1).optional().describe("only this category"),
    ...validationPagingInput(),
  }),
);

export function catdocValidateTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_validate",
    title: "Validate the project",
    description:
      "Checks the category laws over the project or one category: identities, endpoints, duplicate ids, functors, natural transformations; warns of suspect links (SUSPECT_LINK). Use after editing or importing. isValid: false is a result, not an error.",
    get input() {
      return input();
    },
    get output() {
      return ValidationOutput();
    },
    annotations: READ_ONLY,
    handler: async ({ categoryId, limit, offset }) => {
      const loaded = await project.load();
      const index = loaded.index;
      const laws = categoryId === undefined ? await validateProjectOnce(index) : (await validators()).validateCategory(index, categoryId);
      // Suspect links compare the documents on disk now: never cached with the laws' report.
      const { projectImpact, withSuspectLinks } = await import("../domain/change-impact/index.js");
      const scope = categoryId === undefined ? ({ kind: "project" } as const) : ({ kind: "category", id: categoryId } as const);
      const report = withSuspectLinks(laws, await projectImpact(loaded), scope);
      return validationView(report, scope, {
        limit,
        offset,
      });
    },
  });
}
