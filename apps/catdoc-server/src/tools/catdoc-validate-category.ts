import { READ_ONLY, lazySchema } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { ValidationOutput, validationPagingInput, validationView, validators } from "./support/validation-view.js";

const input = lazySchema(() => z.object({ categoryId: z.string().min(1), ...validationPagingInput() }));

export function catdocValidateCategoryTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_validate_category",
    title: "Validate a category",
    description:
      "Checks one category: identities, morphism endpoints, duplicate ids and (warning) missing compositions. Answers as catdoc_validate.",
    get input() {
      return input();
    },
    get output() {
      return ValidationOutput();
    },
    annotations: READ_ONLY,
    handler: async ({ categoryId, limit, offset }) => {
      const report = (await validators()).validateCategory((await project.load()).index, categoryId);
      return validationView(report, { kind: "category", id: categoryId }, { limit, offset });
    },
  });
}
