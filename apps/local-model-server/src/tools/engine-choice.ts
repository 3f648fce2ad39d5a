/** Routing a task to an engine: exact parsers where they suffice, the model where judgment is needed. */
import { ToolError } from "@local-mcp/core";
import type { ModelService } from "../domain/model/model-service.js";
import type { EngineName } from "./task-response.js";

export type EngineChoice = "auto" | "deterministic" | "model" | undefined;

export interface Routing {
  /** Why the deterministic engines cannot do this call, if they cannot. */
  deterministicGap?: string | undefined;
  /** What needs judgment in this call, if anything. */
  needsJudgment?: string | undefined;
}

export function chooseEngine(choice: EngineChoice, routing: Routing, model: ModelService): EngineName {
  if (choice === "model") {
    model.assertConfigured('engine "model"');
    return "model";
  }
  const gap = routing.deterministicGap ?? routing.needsJudgment;
  if (choice === "deterministic") {
    if (gap) {
      throw new ToolError("INVALID_INPUT", `The deterministic engines cannot do this: ${gap}.`, {
        suggestion: 'Use engine "auto" or "model" (needs a configured model), or handle this task directly.',
        details: { field: "engine" },
      });
    }
    return "deterministic";
  }
  if (!gap) return "deterministic";
  model.assertConfigured(gap);
  return "model";
}
