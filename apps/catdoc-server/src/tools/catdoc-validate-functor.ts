import { READ_ONLY, lazySchema } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { ValidationOutput, validationPagingInput, validationView, validators } from "./support/validation-view.js";

const input = lazySchema(() => z.object({ functorId: z.string().min(1), ...validationPagingInput() }));

export function catdocValidateFunctorTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_validate_functor",
    title: "Validate a functor",
    description:
      "Checks one functor F: C → D: every object and morphism mapped, endpoints and identities preserved. Answers as catdoc_validate.",
    get input() {
      return input();
    },
    get output() {
      return ValidationOutput();
    },
    annotations: READ_ONLY,
    handler: async ({ functorId, limit, offset }) => {
      const report = (await validators()).validateFunctor((await project.load()).index, functorId);
      return validationView(report, { kind: "functor", id: functorId }, { limit, offset });
    },
  });
}
