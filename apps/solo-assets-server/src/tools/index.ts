/** Every tool of the server, in the order tools/list shows them. */
import type { AnyToolDefinition } from "@local-mcp/core";
import type { SoloServerServices } from "../server.js";
import { createDeleteFunctionTool } from "./delete-function.js";
import { createGetFunctionHistoryTool } from "./get-function-history.js";
import { createGetFunctionTool } from "./get-function.js";
import { createListFunctionsTool } from "./list-functions.js";
import { createSaveFunctionTool } from "./save-function.js";
import { createSearchFunctionsTool } from "./search-functions.js";

export const TOOL_FACTORIES = [
  createSearchFunctionsTool,
  createGetFunctionTool,
  createSaveFunctionTool,
  createListFunctionsTool,
  createGetFunctionHistoryTool,
  createDeleteFunctionTool,
] as const;

export function createSoloTools(host: SoloServerServices): AnyToolDefinition[] {
  return TOOL_FACTORIES.map((create) => create(host));
}
