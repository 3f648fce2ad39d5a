import { READ_ONLY, lazySchema } from "@local-mcp/core";
import { z } from "zod";
import { defineCatDocTool } from "./catdoc-tool.js";
import { ValidationOutput, validationPagingInput, validationView, validators } from "./support/validation-view.js";

const input = lazySchema(() => z.object({ functorId: z.string().min(1).describe("The functor id (see catdoc_list_functors)."), ...validationPagingInput() }));

export const catdocValidateFunctorTool = defineCatDocTool({
  name: "catdoc_validate_functor",
  title: "Validate a functor",
  description:
    "Checks one functor F: C → D: both categories exist, every object and morphism of C is mapped to one of D, F(f) goes " +
    "F(source f) → F(target f), and F(id_A) is the identity of F(A) (with at most one relation of each meaning between two " +
    "documents, this is what preserving composition asks). isValid: false is a normal result. Same output as catdoc_validate.",
  get input() {
    return input();
  },
  get output() {
    return ValidationOutput();
  },
  annotations: READ_ONLY,
  handler: async ({ functorId, limit, offset }, { project }) => {
    const report = (await validators()).validateFunctor((await project.load()).index, functorId);
    return validationView(report, { kind: "functor", id: functorId }, { limit, offset });
  },
});
