/**
 * Exit statuses and the one-line messages of failures. 0: done; 1: the work failed (an error
 * from the project, an invalid project for `validate`); 2: the command line was wrong.
 */
import { isCatDocError, ProjectNotInitializedError } from "../domain/errors.js";
import { oneLine } from "./text-width.js";

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A command line that cannot be run as given (conflicting options, missing argument). */
export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}

/** A configuration that cannot be read (a bad CATDOC_* or LOCAL_MCP_* value): exit 1, its message as is. */
export class CliConfigError extends Error {
  override readonly name = "CliConfigError";
}

/** The one line of bad usage (without the `catdoc: ` prefix): the code USAGE, the problem, where the usage is. */
export function usageLine(problem: string): string {
  return `USAGE: ${oneLine(problem).replace(/\s+/g, " ").trim()} — see \`catdoc --help\` or \`catdoc <command> --help\``;
}

/** Core's ToolError (thrown by its path guard), known by its name: --help must not load core's index for isToolError. */
function isCoreToolError(error: unknown): error is Error {
  return error instanceof Error && error.name === "ToolError";
}

/** The line printed for a failure (without the `catdoc: ` prefix). */
export function failureMessage(error: unknown): string {
  if (error instanceof CliConfigError) return oneLine(error.message);
  if (error instanceof ProjectNotInitializedError) {
    const root = typeof error.details["root"] === "string" ? error.details["root"] : "";
    return `CatDoc project not initialized${root === "" ? "" : ` at '${root}'`}. Run \`catdoc init\` first.`;
  }
  // A coded error from the project or from core (its path guard): its message, as is.
  if (isCatDocError(error) || isCoreToolError(error)) return oneLine(error.message);
  if (error instanceof Error) return `internal error: ${oneLine(error.message)}`;
  return `internal error: ${oneLine(String(error))}`;
}
