import { READ_ONLY, LeveledResponse, defineTool } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { FunctionRecord } from "../domain/library/function-record.js";
import type { SoloServerServices } from "../server.js";
import { functionSummary } from "./function-views.js";
import { FunctionSummarySchema, StatusSchema } from "./output-schemas.js";

function listResponse(total: number, offset: number, functions: FunctionRecord[]): LeveledResponse {
  return new LeveledResponse((level) => ({
    minimal: { total, count: functions.length, functions: functions.map((f) => functionSummary(f, level)) },
    standard: { offset },
  }));
}

export function listFunctionsTool(host: SoloServerServices): ToolDefinition {
  return defineTool({
    name: "list_functions",
    title: "List the library's functions",
    description:
      "Lists the library's functions, newest first, filtered by status, tags or text. To find one for a task, use search_functions.",
    input: z.object({
      status: StatusSchema.optional().describe("the gate's verdict"),
      tags: z.array(z.string().min(1).max(50)).max(20).optional().describe("any of these"),
      text: z.string().max(200).optional().describe("in name or description"),
      limit: z.number().int().min(1).max(500).default(50),
      offset: z.number().int().min(0).default(0),
    }),
    output: z.object({
      total: z.number().int(),
      count: z.number().int(),
      functions: z.array(FunctionSummarySchema),
      offset: z.number().int().optional(),
    }),
    annotations: READ_ONLY,
    handler: async (input, { signal }) => {
      const { total, functions } = await (
        await host.services()
      ).library.list(
        {
          ...(input.status ? { statuses: [input.status] } : {}),
          ...(input.tags ? { tags: input.tags.map((t) => t.toLowerCase()) } : {}),
          ...(input.text ? { text: input.text } : {}),
        },
        { limit: input.limit, offset: input.offset },
        signal,
      );
      return listResponse(total, input.offset, functions);
    },
  });
}
