/**
 * Stores functions through the library's real commit path (embedding, one transaction) with a
 * gate report that says the gate was not run — for tests about storage and search, where running
 * ruff, mypy and Python for every one of dozens of functions would only cost time.
 */
import type { GateReport } from "../../src/domain/gate/gate-report.js";
import type { SaveOutcome } from "../../src/domain/library/function-library.js";
import type { SoloServices } from "../../src/services.js";

export interface PlainFunction {
  name: string;
  code: string;
  description: string;
  tags?: string[];
}

export function notRunReport(code: string): GateReport {
  const skipped = { status: "skipped" as const, tool: "", duration_ms: 0, summary: "Not run (test fixture)." };
  return {
    status: "unverified",
    code,
    code_changed: false,
    steps: [
      { step: "lint", ...skipped, errors: [], fixed: [], unfixed: [], syntax_error: false },
      { step: "type", ...skipped, errors: [] },
      { step: "test", ...skipped, outcome: "skipped", cases: [] },
      { step: "critic", ...skipped, backend: "off", threshold: 80 },
    ],
    checked_at: new Date().toISOString(),
    duration_ms: 0,
  };
}

export function commitUnchecked(services: SoloServices, fn: PlainFunction): Promise<SaveOutcome> {
  return services.library.commit(
    { name: fn.name, code: fn.code, description: fn.description, tags: fn.tags ?? [], dependencies: [], testCases: [], skipTests: true },
    notRunReport(fn.code),
    { signal: new AbortController().signal },
  );
}
