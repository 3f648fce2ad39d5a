/**
 * CatDoc's domain errors as core ToolErrors. The codes map one to one (the domain raises only
 * core codes); the message is kept, except for a missing project, which gets the message agents
 * are told to expect; and each not-found names the tool that lists what exists.
 */
import { ToolError } from "@local-mcp/core";
import { CatDocError, CatDocParseError, ProjectNotInitializedError } from "./domain/errors.js";
import type { EntityKind } from "./domain/errors.js";

export const NOT_INITIALIZED_MESSAGE = "CatDoc project not initialized. Run catdoc_init first.";

const LIST_TOOL: Partial<Record<EntityKind, string>> = {
  category: "Call catdoc_list_categories to see the category ids.",
  object: "Call catdoc_search or catdoc_list_objects to find the object id.",
  morphism: "Call catdoc_list_morphisms to see the morphism ids.",
  functor: "Call catdoc_list_functors to see the functor ids.",
  naturalTransformation: "Call catdoc_list_natural_transformations to see the ids.",
  file: "Give a path relative to the project root that exists.",
};

/** At most this many parse problems travel in `details`. */
const MAX_ISSUES = 10;

export function toolErrorFromCatDoc(error: CatDocError): ToolError {
  if (error instanceof ProjectNotInitializedError) {
    return new ToolError("NOT_FOUND", NOT_INITIALIZED_MESSAGE, {
      suggestion: `Call catdoc_init to create .catdoc/ in ${String(error.details["root"])}, or point CATDOC_PROJECT_PATH at an existing CatDoc project.`,
      details: error.details,
      cause: error,
    });
  }
  if (error instanceof CatDocParseError) {
    return new ToolError(error.code, error.message, {
      suggestion: error.suggestion ?? "Fix the file at the line and column given.",
      details: { file: error.file, issues: error.issues.slice(0, MAX_ISSUES), totalIssues: error.issues.length },
      cause: error,
    });
  }
  const kind = error.details["kind"] as EntityKind | undefined;
  const suggestion = error.suggestion ?? (error.code === "NOT_FOUND" && kind !== undefined ? LIST_TOOL[kind] : undefined);
  return new ToolError(error.code, error.message, {
    ...(suggestion === undefined ? {} : { suggestion }),
    ...(Object.keys(error.details).length === 0 ? {} : { details: error.details }),
    cause: error,
  });
}

/** A CatDocError as a ToolError; anything else unchanged (core renders it as INTERNAL). */
export function asToolError(error: unknown): unknown {
  return error instanceof CatDocError ? toolErrorFromCatDoc(error) : error;
}
