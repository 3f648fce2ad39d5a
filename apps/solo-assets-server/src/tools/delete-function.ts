import { DESTRUCTIVE_IDEMPOTENT, LeveledResponse, defineTool } from "@local-mcp/core";
import { z } from "zod";
import type { SoloServerServices } from "../server.js";

export function createDeleteFunctionTool(host: SoloServerServices) {
  return defineTool({
    name: "delete_function",
    title: "Delete a function",
    description:
      "Removes a function from the library: it no longer appears in search, lists or get_function. Its saved versions " +
      "stay readable through get_function_history and get_function(name, version). Only delete when the user asks.",
    input: z.object({ name: z.string().min(1).max(100).describe("The function's name") }),
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
