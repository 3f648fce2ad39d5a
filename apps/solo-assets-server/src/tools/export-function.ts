import { ADDITIVE, LeveledResponse, defineTool } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { exportFunctions } from "../domain/library/function-export.js";
import type { SoloServerServices } from "../server.js";
import { StatusSchema } from "./output-schemas.js";

export function exportFunctionTool(host: SoloServerServices): ToolDefinition {
  return defineTool({
    name: "export_function",
    title: "Export functions into the project",
    description:
      "Writes library functions, with the library functions they import, as one Python module (default solo_lib.py) plus requirements.txt into a folder of the project. Re-export updates it in place and says what changed.",
    input: z.object({
      names: z.array(z.string().min(1).max(100)).min(1).max(50),
      to: z.string().min(1).max(4096).describe("folder in the project, e.g. src"),
      module: z.string().min(1).max(100).optional().describe("module name without .py (default solo_lib)"),
      replace: z.boolean().default(false).describe("drop functions exported there before"),
    }),
    output: z.object({
      module: z.string().describe("path from the project root"),
      status: z.enum(["created", "updated", "unchanged"]),
      changes: z.array(z.string()),
      requirements: z.string().optional(),
      exported: z.array(z.string()).optional(),
      functions: z.array(z.object({ name: z.string(), version: z.number().int(), status: StatusSchema })).optional(),
    }),
    annotations: ADDITIVE,
    handler: async (input, { signal }) => {
      const services = await host.services();
      const { config } = host;
      const outcome = await exportFunctions(
        { db: services.library.db, python: config.python, env: config.toolEnv, projectRoot: config.projectRoot },
        { names: input.names, to: input.to, replace: input.replace, ...(input.module ? { module: input.module } : {}) },
        signal,
      );
      return new LeveledResponse({
        minimal: { module: outcome.module, status: outcome.status, changes: outcome.changes },
        standard: {
          ...(outcome.requirements ? { requirements: outcome.requirements } : {}),
          exported: outcome.exported,
          functions: outcome.functions.map((f) => ({ name: f.name, version: f.version, status: StatusSchema.parse(f.status) })),
        },
      });
    },
  });
}
