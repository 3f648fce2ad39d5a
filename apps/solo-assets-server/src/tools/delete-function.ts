import { DESTRUCTIVE_IDEMPOTENT, LeveledResponse, defineTool } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { SoloServerServices } from "../server.js";

export function deleteFunctionTool(host: SoloServerServices): ToolDefinition {
  return defineTool({
    name: "delete_function",
    title: "Delete a function",
    description:
      "Removes a function from search, lists and get_function; its versions stay in get_function_history. Only when the user asks.",
    input: z.object({ name: z.string().min(1).max(100) }),
    output: z.object({
      name: z.string(),
      deleted: z.boolean(),
      versions_kept: z.number().int().optional(),
    }),
    annotations: DESTRUCTIVE_IDEMPOTENT,
    handler: async (input, { signal }) => {
      const deleted = await (await host.services()).library.delete(input.name, signal);
      return new LeveledResponse({
        minimal: { name: deleted.name, deleted: true },
        standard: { versions_kept: deleted.versionsKept },
      });
    },
  });
}
