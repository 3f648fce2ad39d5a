/** The 19 tools of catdoc-mcp, in the order tools/list shows them. */
import type { AnyToolDefinition } from "@local-mcp/core";
import type { ProjectAccess } from "../project-access.js";
import { bindCatDocTool } from "./catdoc-tool.js";
import type { AnyCatDocTool } from "./catdoc-tool.js";
import { catdocGetGraphTool } from "./catdoc-get-graph.js";
import { catdocImportDocumentTool } from "./catdoc-import-document.js";
import { catdocInitTool } from "./catdoc-init.js";
import { catdocListCategoriesTool } from "./catdoc-list-categories.js";
import { catdocListFunctorsTool } from "./catdoc-list-functors.js";
import { catdocListMorphismsTool } from "./catdoc-list-morphisms.js";
import { catdocListNaturalTransformationsTool } from "./catdoc-list-natural-transformations.js";
import { catdocListObjectsTool } from "./catdoc-list-objects.js";
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

export const CATDOC_TOOLS: readonly AnyCatDocTool[] = [
  catdocInitTool,
  catdocListCategoriesTool,
  catdocShowCategoryTool,
  catdocListObjectsTool,
  catdocShowObjectTool,
  catdocImportDocumentTool,
  catdocListMorphismsTool,
  catdocShowMorphismTool,
  catdocValidateTool,
  catdocValidateCategoryTool,
  catdocValidateFunctorTool,
  catdocValidateNaturalTransformationTool,
  catdocTraceTool,
  catdocSearchTool,
  catdocListFunctorsTool,
  catdocShowFunctorTool,
  catdocListNaturalTransformationsTool,
  catdocShowNaturalTransformationTool,
  catdocGetGraphTool,
];

/** The tools bound to one project, ready for core's createServer. */
export function catdocTools(project: ProjectAccess): AnyToolDefinition[] {
  return CATDOC_TOOLS.map((tool) => bindCatDocTool(tool, project));
}
