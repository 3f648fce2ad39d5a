/** The tools of local-model-mcp, one file each, in tools/list order. */
import type { AnyToolDefinition } from "@local-mcp/core";
import type { LocalModelRuntime } from "../runtime.js";
import { localAnalyzeTool } from "./local-analyze.js";
import { localAskTool } from "./local-ask.js";
import { localExtractTool } from "./local-extract.js";
import { localGenerateTool } from "./local-generate.js";
import { localGitTool } from "./local-git.js";
import { localVerifyTool } from "./local-verify.js";

export function localModelTools(runtime: LocalModelRuntime): AnyToolDefinition[] {
  return [
    localExtractTool(runtime),
    localVerifyTool(runtime),
    localGenerateTool(runtime),
    localGitTool(runtime),
    localAnalyzeTool(runtime),
    localAskTool(runtime),
  ];
}
