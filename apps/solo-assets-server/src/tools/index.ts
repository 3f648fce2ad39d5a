/** Every tool of the server, in the order tools/list shows them. */
import type { AnyToolDefinition } from "@local-mcp/core";
import type { SoloServerServices } from "../server.js";
import { deleteFunctionTool } from "./delete-function.js";
import { exportFunctionTool } from "./export-function.js";
import { getFunctionHistoryTool } from "./get-function-history.js";
import { getFunctionTool } from "./get-function.js";
import { listFunctionsTool } from "./list-functions.js";
import { saveFunctionTool } from "./save-function.js";
import { searchFunctionsTool } from "./search-functions.js";

export function soloAssetsTools(host: SoloServerServices): AnyToolDefinition[] {
  return [
    searchFunctionsTool(host),
    getFunctionTool(host),
    saveFunctionTool(host),
    listFunctionsTool(host),
    getFunctionHistoryTool(host),
    deleteFunctionTool(host),
    exportFunctionTool(host),
  ];
}
