import type { AnyToolDefinition } from "@local-mcp/core";
import type { MochiRuntime } from "../runtime.js";
import { completeCodeTool } from "./complete-code.js";
import { domainQueryTool } from "./domain-query.js";
import { suggestPatternTool } from "./suggest-pattern.js";

/** Every mochi tool, in the order tools/list shows them. */
export function mochiTools(runtime: MochiRuntime): AnyToolDefinition[] {
  return [domainQueryTool(runtime), completeCodeTool(runtime), suggestPatternTool(runtime)];
}
