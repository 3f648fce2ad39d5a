/** The 19 tools of catdoc-mcp, in the order tools/list shows them. */
import type { AnyToolDefinition } from "@local-mcp/core";
import type { ProjectAccess } from "../project-access.js";
import { bindCatDocTool } from "./catdoc-tool.js";
import type { AnyCatDocTool } from "./catdoc-tool.js";
import { catdocGetGraphTool } from "./catdoc_get_graph.js";
import { catdocImportDocumentTool } from "./catdoc_import_document.js";
import { catdocInitTool } from "./catdoc_init.js";
import { catdocListCategoriesTool } from "./catdoc_list_categories.js";
import { catdocListFunctorsTool } from "./catdoc_list_functors.js";
import { catdocListMorphismsTool } from "./catdoc_list_morphisms.js";
import { catdocListNaturalTransformationsTool } from "./catdoc_list_natural_transformations.js";
import { catdocListObjectsTool } from "./catdoc_list_objects.js";
import { catdocSearchTool } from "./catdoc_search.js";
import { catdocShowCategoryTool } from "./catdoc_show_category.js";
import { catdocShowFunctorTool } from "./catdoc_show_functor.js";
import { catdocShowMorphismTool } from "./catdoc_show_morphism.js";
import { catdocShowNaturalTransformationTool } from "./catdoc_show_natural_transformation.js";
import { catdocShowObjectTool } from "./catdoc_show_object.js";
import { catdocTraceTool } from "./catdoc_trace.js";
import { catdocValidateTool } from "./catdoc_validate.js";
import { catdocValidateCategoryTool } from "./catdoc_validate_category.js";
import { catdocValidateFunctorTool } from "./catdoc_validate_functor.js";
import { catdocValidateNaturalTransformationTool } from "./catdoc_validate_natural_transformation.js";

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
