import type { Language } from "../files/languages.js";

/** Kinds of named things whose naming the catalog reports. */
export const IDENTIFIER_KINDS = [
  "file",
  "class",
  "interface",
  "type",
  "enum",
  "function",
  "method",
  "property",
  "constant",
  "variable",
  "parameter",
] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/** The recurring constructs the analyzers recognise (described in pattern-definitions.ts). */
export const PATTERN_NAMES = [
  "abort-signal",
  "abstract-base-class",
  "custom-error-class",
  "data-class",
  "definition-object",
  "discriminated-union",
  "disposable-resource",
  "error-handling",
  "factory-function",
  "fluent-builder",
  "options-object",
  "registry",
  "result-type",
  "schema-validation",
] as const;
export type PatternName = (typeof PATTERN_NAMES)[number];

export interface Declaration {
  kind: IdentifierKind;
  name: string;
  /** 1-based line of the name. */
  line: number;
  exported: boolean;
}

/** A unit of code that stands on its own (a top-level declaration, or a method of a long class). */
export interface CodeChunk {
  symbol: string;
  kind: IdentifierKind;
  /** 1-based, inclusive; the doc comment is not part of the range. */
  startLine: number;
  endLine: number;
  exported: boolean;
  /** The doc comment (JSDoc, docstring, `///`), cleaned of comment markers. */
  doc?: string;
}

export type ImportStyle =
  | "esm-named"
  | "esm-default"
  | "esm-namespace"
  | "esm-side-effect"
  | "esm-reexport"
  | "commonjs-require"
  | "dynamic-import"
  | "python-import"
  | "python-from"
  | "go-import"
  | "rust-use"
  | "java-import"
  | "csharp-using";

export interface ImportFact {
  specifier: string;
  style: ImportStyle;
  /** `import type` / `export type … from` (TypeScript only). */
  typeOnly: boolean;
}

/** What a catch / except block does with the failure. */
export const CATCH_STYLES = ["rethrow", "fallback", "handle", "swallow"] as const;
export type CatchStyle = (typeof CATCH_STYLES)[number];

export interface ErrorFacts {
  /** Class (or call) behind each throw/raise/panic: `ToolError`, `errors.New`, `(value)`, `(re-raise)`. */
  thrown: string[];
  tryBlocks: number;
  catches: Record<CatchStyle, number>;
  /** `promise.catch(...)` calls. */
  promiseCatches: number;
  /** Failures returned as values: `{ ok: false }` objects, Go `return …, err`, Rust `Err(…)`. */
  errorValues: number;
  /** Checks of returned errors: Go `if err != nil`, Rust `?`. */
  errorChecks: number;
}

export interface PatternHit {
  pattern: PatternName;
  /** The enclosing named thing (`createServer`, `ToolError`, `Registry.register`). */
  symbol: string;
  /** 1-based lines of the construct's snippet. */
  startLine: number;
  endLine: number;
  /** Higher is a better example of the pattern (e.g. a catch that wraps the error beats one that swallows it). */
  quality: number;
}

export interface FileFacts {
  path: string;
  language: Language;
  lines: number;
  declarations: Declaration[];
  chunks: CodeChunk[];
  imports: ImportFact[];
  errors: ErrorFacts;
  patterns: PatternHit[];
  /** Test framework the file uses, when it is a test file. */
  testFramework?: string;
}

export function emptyErrorFacts(): ErrorFacts {
  return {
    thrown: [],
    tryBlocks: 0,
    catches: { rethrow: 0, fallback: 0, handle: 0, swallow: 0 },
    promiseCatches: 0,
    errorValues: 0,
    errorChecks: 0,
  };
}

/** `/** … *\/` or `///` comment text without its markers, trimmed, blank lines collapsed. */
export function cleanDocComment(raw: string): string {
  const body = raw
    .replace(/^\/\*\*?/, "")
    .replace(/\*\/$/, "")
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:\*(?!\/)|\/\/\/?|#)\s?/, "").trimEnd());
  return body
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** How people call each kind of identifier in prose ("classes are PascalCase"). */
export const IDENTIFIER_KIND_LABELS: Record<IdentifierKind, string> = {
  file: "file names",
  class: "classes",
  interface: "interfaces",
  type: "type aliases",
  enum: "enums",
  function: "functions",
  method: "methods",
  property: "properties",
  constant: "module-level constants",
  variable: "variables",
  parameter: "parameters",
};
