/**
 * How a stored function appears in tool results, level by level. Lists and search results
 * render each element through `atLevel`, so minimal ⊆ standard ⊆ full holds element by element.
 */
import { atLevel } from "@local-mcp/core";
import type { ResponseLevel } from "@local-mcp/core";
import type { GateReport } from "../domain/gate/gate-report.js";
import type { FunctionSummaryRecord } from "../domain/library/function-record.js";

export function functionSummary(
  record: FunctionSummaryRecord,
  level: ResponseLevel,
  extra: { minimal?: Record<string, unknown>; standard?: Record<string, unknown>; full?: Record<string, unknown> } = {},
) {
  return atLevel(level, {
    minimal: { name: record.name, status: record.status, version: record.version, ...extra.minimal },
    standard: { description: record.description, signature: record.signature, tags: record.tags, ...extra.standard },
    full: { docstring: record.docstring, dependencies: record.dependencies, updated_at: record.updatedAt, ...extra.full },
  });
}

/** One line per step: what ran and what it found. */
export function stepSummaries(gate: GateReport) {
  return gate.steps.map((step) => ({
    step: step.step,
    status: step.status,
    tool: step.tool,
    summary: step.summary,
    ...(step.issue ? { issue: step.issue } : {}),
  }));
}

/** The gate report without the code (returned separately). */
export function gateDetails(gate: GateReport) {
  const { code: _code, ...rest } = gate;
  return rest;
}

/** "gemini gemma-3-27b-it", "local model.gguf" or "off": which critic ran. */
export function criticLabel(gate: GateReport): string {
  const critic = gate.steps[3];
  if (critic.status === "skipped" && critic.backend === "off") return critic.summary === "The critic is off." ? "off" : "not run";
  return critic.model ? `${critic.backend} ${critic.model}` : critic.backend;
}
