import { READ_ONLY, lazySchema } from "@local-mcp/core";
import { z } from "zod";
import { defineCatDocTool } from "./catdoc-tool.js";
import { ValidationOutput, validationPagingInput, validationView, validators } from "./support/validation-view.js";

const input = lazySchema(() => z.object({ id: z.string().min(1).describe("The natural transformation id (see catdoc_list_natural_transformations)."), ...validationPagingInput() }));

export const catdocValidateNaturalTransformationTool = defineCatDocTool({
  name: "catdoc_validate_natural_transformation",
  title: "Validate a natural transformation",
  description:
    "Checks one natural transformation η: F ⇒ G: both functors exist and share source and target categories, every object A " +
    "has a component η_A in the target category going F(A) → G(A), and (warning) each naturality square has a morphism " +
    "F(A) → G(B) for both sides to compose to. isValid: false is a normal result. Same output as catdoc_validate.",
  get input() {
    return input();
  },
  get output() {
    return ValidationOutput();
  },
  annotations: READ_ONLY,
  handler: async ({ id, limit, offset }, { project }) => {
    const report = (await validators()).validateNaturalTransformation((await project.load()).index, id);
    return validationView(report, { kind: "naturalTransformation", id }, { limit, offset });
  },
});
