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

/**
 * Checks each item's data against the caller's schema in a parser thread (domain/parsing): the
 * schema's `pattern`s are the caller's regexes, so the check is bounded by the call's deadline.
 */
export async function checkAgainstSchema(
  runtime: LocalModelRuntime,
  schema: Record<string, unknown>,
  items: [string, unknown][],
  signal: AbortSignal,
): Promise<{ valid: boolean; error?: string }> {
  const check = await runtime.parsers.run({ kind: "schema", schema, items }, { signal, what: "the data against your schema" });
  if (check.problem !== undefined)
    throw new ToolError("INVALID_INPUT", `The JSON schema is not valid: ${check.problem}`, { details: { field: "schema" } });
  return check.error === undefined ? { valid: check.valid } : { valid: check.valid, error: check.error };
}
