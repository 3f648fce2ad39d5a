import { READ_ONLY, LeveledResponse, defineTool, eachAtLevel } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { FunctionRecord, VersionRecord } from "../domain/library/function-record.js";
import type { SoloServerServices } from "../server.js";
import { gateDetails } from "./function-views.js";
import { GateReportSchema, StatusSchema } from "./output-schemas.js";

/** A function's versions, each rendered at the call's level (as many at every level). */
function historyResponse(name: string, current: FunctionRecord | undefined, versions: VersionRecord[]): LeveledResponse {
  return new LeveledResponse((level) => ({
    minimal: {
      name,
      deleted: current === undefined,
      versions: eachAtLevel(level, versions, (v) => ({
        minimal: { version: v.version, status: v.status, saved_at: v.createdAt },
        standard: {
          description: v.description,
          steps: v.metadata.gate.steps.map((s) => `${s.step} ${s.status}`).join(", "),
          ...(v.metadata.gate.rejection ? { rejection: v.metadata.gate.rejection.kind } : {}),
        },
        full: { code: v.code, gate_report: gateDetails(v.metadata.gate) },
      })),
    },
    standard: { latest_version: current?.version ?? null },
  }));
}

export function getFunctionHistoryTool(host: SoloServerServices): ToolDefinition {
  return defineTool({
    name: "get_function_history",
    title: "A function's versions",
    description: "Lists every saved version of a function, newest first, with its gate status (also after delete_function).",
    input: z.object({ name: z.string().min(1).max(100) }),
    output: z.object({
      name: z.string(),
      deleted: z.boolean(),
      versions: z.array(
        z.object({
          version: z.number().int(),
          status: StatusSchema,
          saved_at: z.string(),
          description: z.string().optional(),
          steps: z.string().optional(),
          rejection: z.string().optional(),
          code: z.string().optional(),
          gate_report: GateReportSchema.optional(),
        }),
      ),
      latest_version: z.number().int().nullable().optional(),
    }),
    annotations: READ_ONLY,
    handler: async (input, { signal }) => {
      const { current, versions } = await (await host.services()).library.history(input.name, signal);
      return historyResponse(input.name, current, versions);
    },
  });
}
