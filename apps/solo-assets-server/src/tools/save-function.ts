import { ADDITIVE, openWorld, LeveledResponse, defineTool } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { SoloServerServices } from "../server.js";
import { criticLabel, gateDetails, stepSummaries } from "./function-views.js";
import { boundedArray, boundedString } from "@local-mcp/core";
import { GateReportSchema, RejectionSchema, StatusSchema, StepSummarySchema, TestCaseSchema, UnverifiedSchema } from "./output-schemas.js";

export function saveFunctionTool(host: SoloServerServices): ToolDefinition {
  const { config, settings } = host;
  return defineTool({
    name: "save_function",
    title: "Save a verified function",
    description:
      "Stores a finished, reusable Python function after a quality gate (Ruff, types, sandboxed tests, optional critic). NOT a way to run code. Search with search_functions before writing new code. It may import library functions (from solo_lib import name); copies and secrets are refused.",
    input: z.object({
      name: boundedString(100).describe("as after def"),
      code: boundedString(200_000).describe("Python source with imports"),
      description: boundedString(4000).describe("what it does (for search)"),
      tags: boundedArray(boundedString(50), 20).default([]),
      dependencies: boundedArray(boundedString(200), 50).default([]).describe("PyPI requirements, e.g. python-dateutil>=2.8"),
      test_cases: boundedArray(TestCaseSchema, 200).default([]).describe('{"input": {kwargs}, "expected": value} or "assert f(1) == 2"'),
      skip_tests: z.boolean().default(false).describe("store as unverified"),
    }),
    output: z.object({
      name: z.string(),
      version: z.number().int(),
      status: StatusSchema,
      critic: z.string().describe("which critic ran: 'gemini <model>', 'local <model>', 'off' or 'not run'"),
      rejection: RejectionSchema.optional(),
      unverified: UnverifiedSchema.optional(),
      warnings: z.array(z.string()).optional().describe("stored, but look: a near-duplicate, a dangerous call, an undeclared import"),
      gate: z.array(StepSummarySchema).optional(),
      code_changed: z.boolean().optional().describe("true when W/I fixes or ruff format changed the stored code"),
      signature: z.string().optional(),
      code: z.string().optional().describe("the code as stored"),
      gate_report: GateReportSchema.optional(),
    }),
    annotations: openWorld(ADDITIVE),
    responseLevel: "standard",
    timeoutMs: config.installTimeoutMs + 2 * config.testTimeoutMs + config.criticTimeoutMs + 60_000,
    handler: async (input, { signal, progress, logger }) => {
      let step = 0;
      const report = (message: string) => {
        step += 1;
        logger.debug(`save_function ${input.name}: ${message}`);
        progress({ progress: step, message });
      };
      const saved = await (
        await host.services()
      ).library.save(
        {
          name: input.name,
          code: input.code,
          description: input.description,
          tags: input.tags,
          dependencies: input.dependencies,
          testCases: input.test_cases,
          skipTests: input.skip_tests,
        },
        { signal, progress: report },
      );
      const gate = saved.gate;
      logger.info(`saved ${saved.function.name} v${saved.function.version}: ${gate.status}`, {
        critic: settings.critic.backend,
        ms: gate.duration_ms,
      });
      return new LeveledResponse({
        minimal: {
          name: saved.function.name,
          version: saved.function.version,
          status: saved.function.status,
          critic: criticLabel(gate),
          ...(gate.rejection ? { rejection: gate.rejection } : {}),
          ...(gate.unverified ? { unverified: gate.unverified } : {}),
          ...(gate.warnings?.length ? { warnings: gate.warnings } : {}),
        },
        standard: { gate: stepSummaries(gate), code_changed: gate.code_changed },
        full: { signature: saved.function.signature, code: saved.function.code, gate_report: gateDetails(gate) },
      });
    },
  });
}
