import { READ_ONLY, lazySchema } from "@local-mcp/core";
import { z } from "zod";
import { defineCatDocTool } from "./catdoc-tool.js";
import { ValidationOutput, validationPagingInput, validationView, validators } from "./support/validation-view.js";

const input = lazySchema(() => z.object({ categoryId: z.string().min(1).describe("The category id."), ...validationPagingInput() }));

export const catdocValidateCategoryTool = defineCatDocTool({
  name: "catdoc_validate_category",
  title: "Validate a category",
  description:
    "Checks one category: every object has an identity, every morphism's source and target are objects of the category, no id " +
    "is defined twice, and (warning) composable pairs f: A → B, g: B → C have a morphism A → C. isValid: false is a normal " +
    "result. Same output as catdoc_validate.",
  get input() {
    return input();
  },
  get output() {
    return ValidationOutput();
  },
  annotations: READ_ONLY,
  handler: async ({ categoryId, limit, offset }, { project }) => {
    const report = (await validators()).validateCategory((await project.load()).index, categoryId);
    return validationView(report, { kind: "category", id: categoryId }, { limit, offset });
  },
});
