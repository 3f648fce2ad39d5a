import { ADDITIVE, LeveledResponse, defineTool } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { exportFunctions } from "../domain/library/function-export.js";
import type { SoloServerServices } from "../server.js";
import { StatusSchema } from "./output-schemas.js";
import { boundedArray, boundedString } from "@local-mcp/core";

export function exportFunctionTool(host: SoloServerServices): ToolDefinition {
  return defineTool({
    name: "export_function",
    title: "Export functions into the project",
    description:
      "Writes library functions and those they import as one Python module (+ requirements.txt, also listing undeclared imports) into a project folder; a re-export updates it.",
    input: z.object({
      names: boundedArray(boundedString(100), 50, 1),
      to: boundedString(4096).describe("project folder"),
      module: boundedString(100).optional().describe("default solo_lib"),
      replace: z.boolean().default(false).describe("drop earlier exports"),
    }),
    output: z.object({
      module: z.string().describe("path from the project root"),
      status: z.enum(["created", "updated", "unchanged"]),
      changes: z.array(z.string()),
      warnings: z
        .array(z.string())
        .optional()
        .describe("imports no function declares a package for: listed in requirements.txt all the same"),
      requirements: z.string().optional(),
      exported: z.array(z.string()).optional(),
      functions: z.array(z.object({ name: z.string(), version: z.number().int(), status: StatusSchema })).optional(),
      undeclared: z
        .array(
          z.object({
            distribution: z.string(),
            modules: z.array(z.string()),
            functions: z.array(z.object({ name: z.string(), line: z.number().int() })),
          }),
        )
        .optional(),
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
        minimal: {
          module: outcome.module,
          status: outcome.status,
          changes: outcome.changes,
          ...(outcome.warnings.length > 0 ? { warnings: outcome.warnings } : {}),
        },
        standard: {
          ...(outcome.requirements ? { requirements: outcome.requirements } : {}),
          exported: outcome.exported,
          functions: outcome.functions.map((f) => ({ name: f.name, version: f.version, status: StatusSchema.parse(f.status) })),
          ...(outcome.undeclared.length > 0 ? { undeclared: outcome.undeclared } : {}),
        },
      });
    },
  });
}
