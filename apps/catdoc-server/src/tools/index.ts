/** The 22 tools of catdoc-mcp, in the order tools/list shows them. */
import type { AnyToolDefinition } from "@local-mcp/core";
import type { ProjectAccess } from "../project-access.js";
import { catdocCoverageTool } from "./catdoc-coverage.js";
import { catdocEditTool } from "./catdoc-edit.js";
import { catdocGetGraphTool } from "./catdoc-get-graph.js";
import { catdocImportDocumentTool } from "./catdoc-import-document.js";
import { catdocInitTool } from "./catdoc-init.js";
import { catdocListCategoriesTool } from "./catdoc-list-categories.js";
import { catdocListFunctorsTool } from "./catdoc-list-functors.js";
import { catdocListMorphismsTool } from "./catdoc-list-morphisms.js";
import { catdocListNaturalTransformationsTool } from "./catdoc-list-natural-transformations.js";
import { catdocListObjectsTool } from "./catdoc-list-objects.js";
import { catdocReviewTool } from "./catdoc-review.js";
import { catdocSearchTool } from "./catdoc-search.js";
import { catdocShowCategoryTool } from "./catdoc-show-category.js";
import { catdocShowFunctorTool } from "./catdoc-show-functor.js";
import { catdocShowMorphismTool } from "./catdoc-show-morphism.js";
import { catdocShowNaturalTransformationTool } from "./catdoc-show-natural-transformation.js";
import { catdocShowObjectTool } from "./catdoc-show-object.js";
import { catdocTraceTool } from "./catdoc-trace.js";
import { catdocValidateTool } from "./catdoc-validate.js";
import { catdocValidateCategoryTool } from "./catdoc-validate-category.js";
import { catdocValidateFunctorTool } from "./catdoc-validate-functor.js";
import { catdocValidateNaturalTransformationTool } from "./catdoc-validate-natural-transformation.js";

/** The tools on one project, ready for core's createServer. */
export function catDocTools(project: ProjectAccess): AnyToolDefinition[] {
  return [
    catdocInitTool(project),
    catdocListCategoriesTool(project),
    catdocShowCategoryTool(project),
    catdocListObjectsTool(project),
    catdocShowObjectTool(project),
    catdocImportDocumentTool(project),
    catdocListMorphismsTool(project),
    catdocShowMorphismTool(project),
    catdocValidateTool(project),
    catdocValidateCategoryTool(project),
    catdocValidateFunctorTool(project),
    catdocValidateNaturalTransformationTool(project),
    catdocTraceTool(project),
    catdocCoverageTool(project),
    catdocSearchTool(project),
    catdocListFunctorsTool(project),
    catdocShowFunctorTool(project),
    catdocListNaturalTransformationsTool(project),
    catdocShowNaturalTransformationTool(project),
    catdocGetGraphTool(project),
    catdocReviewTool(project),
    catdocEditTool(project),
  ];
}
