/**
 * TS/JS parsing with the TypeScript compiler API (`ts.createSourceFile`, no type checking).
 * `typescript` is loaded on first use, so a server that never analyses code never pays its
 * start-up cost.
 */
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
  api ??= import("typescript").then((module) => ((module as { default?: TypeScriptApi }).default ?? (module as unknown as TypeScriptApi)));
  return api;
}

export async function parseSource(path: string, text: string): Promise<ParsedSource> {
  const ts = await loadTypeScript();
  const lower = path.toLowerCase();
  const kind = lower.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : lower.endsWith(".jsx")
      ? ts.ScriptKind.JSX
      : /\.(c|m)?js$/.test(lower)
        ? ts.ScriptKind.JS
        : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
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
