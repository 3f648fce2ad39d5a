/**
 * local_extract's exports, imports and structure of a file in a language core's code-analysis
 * layer reads with tree-sitter (Python, Go, Rust, Java, C#; TS/JS go to the TypeScript compiler,
 * extract-file.ts). The answers mean what docs/local-model.md ("What the answers mean") says.
 * The layer names the modules a file imports, not the names it takes from each: in format "json"
 * each module maps to an empty list.
 */
import type { TextFile } from "../paths/path-guard.js";
import { analyzeCodeFile, exportLines, qualifiedName } from "../analyze/code-languages.js";
import { countLines } from "../text/lines.js";
import type { ExtractFormat, ExtractItem } from "./extract-file.js";

export async function extractCodeExports(file: TextFile, signal: AbortSignal): Promise<ExtractItem> {
  const analysis = await analyzeCodeFile(file, signal);
  const lines = exportLines(analysis);
  return {
    found: analysis.exports.length > 0,
    data: analysis.exports,
    // The line of a name the file declares itself; null for one it only lists (`__all__`, `pub use`).
    lineNumbers: analysis.exports.map((name) => lines.get(name) ?? null),
    details: { language: analysis.language, analyzer: "tree-sitter", ...syntaxErrors(analysis.syntaxErrors) },
  };
}

export async function extractCodeImports(file: TextFile, format: ExtractFormat, signal: AbortSignal): Promise<ExtractItem> {
  const analysis = await analyzeCodeFile(file, signal);
  return {
    found: analysis.imports.length > 0,
    data: format === "list" ? analysis.imports : Object.fromEntries(analysis.imports.map((module) => [module, []])),
    details: { language: analysis.language, analyzer: "tree-sitter", ...syntaxErrors(analysis.syntaxErrors) },
  };
}

/** Types and functions in source order: top level at level 1, members one level below their container. */
export async function extractCodeStructure(file: TextFile, format: ExtractFormat, signal: AbortSignal): Promise<ExtractItem> {
  const analysis = await analyzeCodeFile(file, signal);
  const levelOf = (container: string | undefined) => (container === undefined ? 1 : container.split(".").length + 1);
  const outline = [
    ...analysis.types.map((t) => ({ level: levelOf(t.container), kind: t.kind, name: t.name, qualified: qualifiedName(t), line: t.line })),
    ...analysis.functions.map((f) => ({
      level: levelOf(f.container),
      kind: f.container === undefined ? "function" : "method",
      name: f.name,
      qualified: qualifiedName(f),
      line: f.line,
    })),
  ].sort((a, b) => a.line - b.line || a.level - b.level);
  return {
    found: outline.length > 0,
    data:
      format === "list"
        ? outline.map((o) => `${"  ".repeat(o.level - 1)}${o.kind} ${o.name}`)
        : { outline: outline.map(({ level, kind, name }) => ({ level, kind, name })) },
    lineNumbers: outline.map((o) => o.line),
    details: {
      sections: outline.map((o) => ({ name: o.qualified, kind: o.kind, level: o.level, line: o.line })),
      lines: countLines(file.text),
      analyzer: "tree-sitter",
      ...syntaxErrors(analysis.syntaxErrors),
    },
  };
}

function syntaxErrors(lines: readonly number[]): { syntax_error_lines?: number[] } {
  return lines.length > 0 ? { syntax_error_lines: [...lines] } : {};
}
