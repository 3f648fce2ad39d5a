import { READ_ONLY, lazySchema } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { ValidationOutput, validationPagingInput, validationView, validators } from "./support/validation-view.js";

const input = lazySchema(() => z.object({ id: z.string().min(1).describe("natural transformation id"), ...validationPagingInput() }));

export function catdocValidateNaturalTransformationTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_validate_natural_transformation",
    title: "Validate a natural transformation",
    description:
      "Checks one natural transformation η: F ⇒ G: a component F(A) → G(A) for every object and (warning) naturality squares. Answers as catdoc_validate.",
    get input() {
      return input();
    },
    get output() {
      return ValidationOutput();
    },
    annotations: READ_ONLY,
    handler: async ({ id, limit, offset }) => {
      const report = (await validators()).validateNaturalTransformation((await project.load()).index, id);
      return validationView(report, { kind: "naturalTransformation", id }, { limit, offset });
    },
  });
}
