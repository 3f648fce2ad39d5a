import { READ_ONLY, LeveledResponse, defineTool } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { SoloServerServices } from "../server.js";
import { inlineFunction } from "../domain/library/function-export.js";
import { gateDetails } from "./function-views.js";
import { GateReportSchema, StatusSchema, TestCaseSchema } from "./output-schemas.js";

export function getFunctionTool(host: SoloServerServices): ToolDefinition {
  return defineTool({
    name: "get_function",
    title: "Get a function's code",
    description:
      "Returns a library function's source (latest or given version) to paste or import, and its status: active (passed the gate), broken or unverified (no tests).",
    input: z.object({
      name: z.string().min(1).max(100),
      version: z.number().int().min(1).optional().describe("default: the latest"),
      inline_dependencies: z.boolean().default(false).describe("inline its solo_lib imports"),
    }),
    output: z.object({
      name: z.string(),
      version: z.number().int(),
      status: StatusSchema,
      signature: z.string(),
      code: z.string().optional(),
      description: z.string().optional(),
      tags: z.array(z.string()).optional(),
      dependencies: z.array(z.string()).optional(),
      inlined: z.array(z.string()).optional().describe("library functions inlined into code, as name vN"),
      test_cases: z.array(TestCaseSchema).optional(),
      latest_version: z.number().int().nullable().optional().describe("the current version; null when the function was deleted"),
      saved_at: z.string().optional(),
      docstring: z.string().optional(),
      gate_report: GateReportSchema.optional(),
      embedding: z.record(z.string(), z.unknown()).optional(),
    }),
    annotations: READ_ONLY,
    // The code is the point of the call: a plain call answers it (standard); minimal says which
    // version and status there is and its signature, to decide whether to fetch the code.
    responseLevel: "standard",
    handler: async (input, { signal }) => {
      const found = await (await host.services()).library.get(input.name, input.version, signal);
      const current = found.current;
      const chosen = found.version ?? current;
      if (!chosen) throw new Error("get returned neither a version nor the current function");
      const docstring = found.version === undefined ? (current?.docstring ?? "") : undefined;
      const imports = chosen.metadata.gate.library?.imports ?? [];
      const services = await host.services();
      const bundle =
        input.inline_dependencies && imports.length > 0
          ? await inlineFunction(
              { db: services.library.db, python: host.config.python, env: host.config.toolEnv },
              { ...chosen, imports },
              signal,
            )
          : undefined;
      return new LeveledResponse({
        minimal: { name: chosen.name, version: chosen.version, status: chosen.status, signature: chosen.signature },
        standard: {
          code: bundle?.text ?? chosen.code,
          description: chosen.description,
          tags: chosen.tags,
          dependencies: bundle?.requirements ?? chosen.dependencies,
          ...(bundle ? { inlined: bundle.functions.filter((f) => f.name !== chosen.name).map((f) => `${f.name} v${f.version}`) } : {}),
          test_cases: chosen.testCases,
          latest_version: current?.version ?? null,
          saved_at: found.version ? found.version.createdAt : (current?.updatedAt ?? ""),
        },
        full: {
          ...(docstring !== undefined ? { docstring } : {}),
          gate_report: gateDetails(chosen.metadata.gate),
          embedding: chosen.metadata.embedding,
        },
      });
    },
  });
}
