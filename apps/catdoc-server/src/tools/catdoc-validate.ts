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
      "Checks the category laws over the project or one category: identities, endpoints, duplicate ids, functors, natural transformations. Use after editing or importing. isValid: false is a result, not an error.",
    get input() {
      return input();
    },
    get output() {
      return ValidationOutput();
    },
    annotations: READ_ONLY,
    handler: async ({ categoryId, limit, offset }) => {
      const index = (await project.load()).index;
      const report = categoryId === undefined ? await validateProjectOnce(index) : (await validators()).validateCategory(index, categoryId);
      return validationView(report, categoryId === undefined ? { kind: "project" } : { kind: "category", id: categoryId }, {
        limit,
        offset,
      });
    },
  });
}
