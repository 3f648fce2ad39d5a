/**
 * Domain errors of CatDoc. Each carries a `code` that is one of core's ToolError codes, so the
 * tool layer maps it one to one (`new ToolError(e.code, e.message, { details: e.details })`)
 * without the domain knowing about MCP.
 */

/** The subset of `@local-mcp/core` error codes the domain raises. */
export type CatDocErrorCode = "INVALID_INPUT" | "NOT_FOUND" | "CONFLICT" | "FORBIDDEN" | "INTERNAL";

export class CatDocError extends Error {
  override readonly name: string = "CatDocError";
  readonly code: CatDocErrorCode;
  /** Machine-readable facts (ids, paths, positions) for the caller. */
  readonly details: Record<string, unknown>;
  /** A hint on what to do next, when the domain knows one. */
  readonly suggestion: string | undefined;

  constructor(
    code: CatDocErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; suggestion?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    this.suggestion = options.suggestion;
  }
}

/** The kinds of things an id names. */
export type EntityKind = "category" | "object" | "morphism" | "functor" | "naturalTransformation" | "project" | "file";

const KIND_LABEL: Record<EntityKind, string> = {
  category: "Category",
  object: "Object",
  morphism: "Morphism",
  functor: "Functor",
  naturalTransformation: "Natural transformation",
  project: "Project",
  file: "File",
};

/** An id that names nothing: `Object 'x' not found in category 'c'`. */
export class CatDocNotFoundError extends CatDocError {
  override readonly name = "CatDocNotFoundError";
  readonly kind: EntityKind;
  readonly id: string;

  constructor(kind: EntityKind, id: string, options: { categoryId?: string; message?: string } = {}) {
    const where = options.categoryId === undefined ? "" : ` in category '${options.categoryId}'`;
    super("NOT_FOUND", options.message ?? `${KIND_LABEL[kind]} '${id}' not found${where}`, {
      details: { kind, id, ...(options.categoryId === undefined ? {} : { categoryId: options.categoryId }) },
    });
    this.kind = kind;
    this.id = id;
  }
}

/** `.catdoc/category.yaml` is missing under the project root. */
export class ProjectNotInitializedError extends CatDocError {
  override readonly name = "ProjectNotInitializedError";
  constructor(root: string) {
    super("NOT_FOUND", `CatDoc project not initialized at '${root}' (no .catdoc/category.yaml).`, {
      details: { kind: "project", root },
      suggestion: "Initialize the project first (catdoc init).",
    });
  }
}

/** One problem found while reading a YAML file, with its place in the file. */
export interface FileIssue {
  /** Where in the data: `categories[0].objects[1].title`; empty for syntax errors. */
  path: string;
  message: string;
  /** 1-based line and column. */
  line: number;
  column: number;
}

/** Malformed YAML or a wrong shape; the message starts with `file:line:column`. */
export class CatDocParseError extends CatDocError {
  override readonly name = "CatDocParseError";
  readonly file: string;
  readonly issues: readonly FileIssue[];

  constructor(file: string, issues: readonly FileIssue[]) {
    const first = issues[0];
    const head = first === undefined ? `${file}: invalid` : formatIssue(file, first);
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
    super("INVALID_INPUT", `${head}${more}`, {
      details: { file, issues },
      suggestion: `Fix ${file} at the line and column given.`,
    });
    this.file = file;
    this.issues = issues;
  }

  /** Line and column of the first issue. */
  get line(): number {
    return this.issues[0]?.line ?? 0;
  }

  get column(): number {
    return this.issues[0]?.column ?? 0;
  }
}

export function formatIssue(file: string, issue: FileIssue): string {
  const where = issue.path === "" ? "" : ` ${issue.path}:`;
  return `${file}:${issue.line}:${issue.column}:${where} ${issue.message}`;
}

/** The file changed between read and write, or the caller's expected version is stale. */
export class CatDocConflictError extends CatDocError {
  override readonly name = "CatDocConflictError";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("CONFLICT", message, { details, suggestion: "Reload the project and apply the change again." });
  }
}

/** A path that resolves outside the project root. */
export class CatDocForbiddenError extends CatDocError {
  override readonly name = "CatDocForbiddenError";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("FORBIDDEN", message, { details, suggestion: "Use a path inside the project root." });
  }
}

/** A value the caller passed is not acceptable (bad id, empty title…). */
export class CatDocInputError extends CatDocError {
  override readonly name = "CatDocInputError";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("INVALID_INPUT", message, { details });
  }
}

export function isCatDocError(value: unknown): value is CatDocError {
  return value instanceof CatDocError;
}
