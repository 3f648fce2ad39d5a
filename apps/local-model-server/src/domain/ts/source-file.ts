/**
 * TS/JS parsing with the TypeScript compiler API (`ts.createSourceFile`, no type checking).
 * `typescript` is loaded on first use, so a server that never analyses code never pays its
 * start-up cost.
 */
import { basename } from "node:path";
import { ToolError } from "@local-mcp/core";
import type ts from "typescript";

export type TypeScriptApi = typeof ts;

const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"] as const;

/** Whether the TS/JS engine handles this file (by extension; `.d.ts` included). */
export function isScriptPath(path: string): boolean {
  const lower = path.toLowerCase();
  return SCRIPT_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

export interface ParsedSource {
  ts: TypeScriptApi;
  sourceFile: ts.SourceFile;
  /** 1-based line where `node` starts (leading trivia excluded). */
  line(node: ts.Node): number;
  /** The node's source text with runs of whitespace collapsed. */
  text(node: ts.Node): string;
}

let api: Promise<TypeScriptApi> | undefined;

export function loadTypeScript(): Promise<TypeScriptApi> {
  api ??= import("typescript").then((module) => (module as { default?: TypeScriptApi }).default ?? (module as unknown as TypeScriptApi));
  return api;
}

/** Deepest bracket nesting parsed: the TypeScript parser recurses once per level and overflowed the stack between 500 and 1,000. */
export const MAX_SOURCE_NESTING = 256;

/**
 * How deeply `(`, `[` and `{` nest in a TS/JS text, outside quoted strings and comments, in one
 * linear pass, and the 1-based line where the deepest level opens. A cheap first bound: what it
 * misses (brackets hidden from it, or nesting without brackets) the RangeError catch below gets.
 */
export function sourceNesting(text: string): { depth: number; line: number } {
  let depth = 0;
  let deepest = 0;
  let deepestLine = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    else if (c === "(" || c === "[" || c === "{") {
      depth++;
      if (depth > deepest) [deepest, deepestLine] = [depth, line];
    } else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 1;
      for (let j = i; j < stop; j++) if (text[j] === "\n") line++;
      i = stop;
    } else if (c === '"' || c === "'") {
      // To the closing quote on the same line (escapes skipped). Template literals are scanned as
      // code: their ${…} holds code, and counting their text too only errs on the strict side.
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      i = j < text.length && text[j] === "\n" ? j - 1 : j;
    }
  }
  return { depth: deepest, line: deepestLine };
}

function tooDeep(path: string, detail: string, line?: number): ToolError {
  return new ToolError("INVALID_INPUT", `${basename(path)} nests too deeply to parse (${detail}).`, {
    suggestion: "Generated or hostile code this deeply nested is not analysed; handle this file directly.",
    details: { file: basename(path), ...(line === undefined ? {} : { line }), maxNesting: MAX_SOURCE_NESTING },
  });
}

export async function parseSource(path: string, text: string): Promise<ParsedSource> {
  const nesting = sourceNesting(text);
  if (nesting.depth > MAX_SOURCE_NESTING)
    throw tooDeep(
      path,
      `brackets ${nesting.depth} levels deep at line ${nesting.line}; at most ${MAX_SOURCE_NESTING} are parsed`,
      nesting.line,
    );
  const ts = await loadTypeScript();
  const lower = path.toLowerCase();
  const kind = lower.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : lower.endsWith(".jsx")
      ? ts.ScriptKind.JSX
      : /\.(c|m)?js$/.test(lower)
        ? ts.ScriptKind.JS
        : ts.ScriptKind.TS;
  let sourceFile: ts.SourceFile;
  try {
    sourceFile = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  } catch (error) {
    // Deep nesting without brackets (20,000 `!` or `a ? b :` in a row) still overflows the stack.
    if (error instanceof RangeError) throw tooDeep(path, error.message);
    throw error;
  }
  return {
    ts,
    sourceFile,
    line: (node) => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1,
    text: (node) => node.getText(sourceFile).replace(/\s+/g, " "),
  };
}

/** Whether a statement carries the given modifier (`export`, `default`, `async`, …). */
export function hasModifier(parsed: ParsedSource, node: ts.Node, kind: ts.SyntaxKind): boolean {
  const { ts } = parsed;
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

/** Names bound by a declaration name (identifiers and destructuring patterns). */
export function bindingNames(parsed: ParsedSource, name: ts.BindingName): string[] {
  const { ts } = parsed;
  if (ts.isIdentifier(name)) return [name.text];
  const names: string[] = [];
  for (const element of name.elements) {
    if (ts.isOmittedExpression(element)) continue;
    names.push(...bindingNames(parsed, element.name));
  }
  return names;
}
