/** Reading a call's files through the path guard, and checking data against a caller's schema. */
import { ToolError } from "@local-mcp/core";
import type { TextFile } from "../domain/paths/path-guard.js";
import type { LocalModelRuntime } from "../runtime.js";

/** Reads every file first, so a forbidden or missing path fails the call before any work. */
export async function readFiles(runtime: LocalModelRuntime, given: readonly string[], signal: AbortSignal): Promise<TextFile[]> {
  const files: TextFile[] = [];
  for (const path of [...new Set(given)]) {
    if (signal.aborted) throw signal.reason;
    files.push(await runtime.guard.readText(path));
  }
  return files;
}

/** Checks each item's data with Ajv (core's check: finite numbers, all errors); says which failed. */
export async function checkAgainstSchema(schema: Record<string, unknown>, items: [string, unknown][]): Promise<{ valid: boolean; error?: string }> {
  const { checkJson, schemaProblem } = await loadChecks();
  const problem = schemaProblem(schema);
  if (problem) throw new ToolError("INVALID_INPUT", `The JSON schema is not valid: ${problem}`, { details: { field: "schema" } });
  const failures: string[] = [];
  for (const [name, value] of items) {
    const check = checkJson(JSON.stringify(value ?? null), schema);
    if (!check.ok) failures.push(`${name}: ${check.error}`);
  }
  return failures.length === 0 ? { valid: true } : { valid: false, error: failures.join("; ") };
}

async function loadChecks() {
  const { checkJson } = await import("@local-mcp/core/inference");
  const { Ajv } = await import("ajv");
  const ajv = new Ajv({ strict: false });
  return {
    checkJson,
    schemaProblem: (schema: Record<string, unknown>): string | undefined => {
      try {
        ajv.compile(schema);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
  };
}
