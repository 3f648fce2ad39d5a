import { READ_ONLY, lazySchema } from "@local-mcp/core";
import { z } from "zod";
import { defineCatDocTool } from "./catdoc-tool.js";
import { ValidationOutput, validateProjectOnce, validationPagingInput, validationView, validators } from "./support/validation-view.js";

const input = lazySchema(() => z.object({
  categoryId: z.string().min(1).optional().describe("Check only this category (its objects and morphisms)."),
  ...validationPagingInput(),
}));

export const catdocValidateTool = defineCatDocTool({
  name: "catdoc_validate",
  title: "Validate the project",
  description:
    "Checks the category laws over the whole project (or one category): identities, morphism endpoints, duplicate ids, functors " +
    "(objects and morphisms mapped, endpoints and identities preserved) and natural transformations (components and their types). " +
    "Use it after editing category.yaml or importing. A failed check is a normal result with isValid: false, not a tool error. " +
    "Errors make the project invalid; warnings (EMPTY_CATEGORY, MISSING_COMPOSITION, NT_SQUARE_OPEN) do not. summary and " +
    "countsByCode count everything; the errors and warnings lists are cut to `limit` each. minimal: the verdict, the counts and " +
    "the errors as code + ids; standard: adds the scope, each error's message and the warnings (code, ids, message); full: adds " +
    "severities and every check the scope runs, with what it means.",
  get input() {
    return input();
  },
  get output() {
    return ValidationOutput();
  },
  annotations: READ_ONLY,
  handler: async ({ categoryId, limit, offset }, { project }) => {
    const index = (await project.load()).index;
    const report = categoryId === undefined ? await validateProjectOnce(index) : (await validators()).validateCategory(index, categoryId);
    return validationView(report, categoryId === undefined ? { kind: "project" } : { kind: "category", id: categoryId }, { limit, offset });
  },
});
