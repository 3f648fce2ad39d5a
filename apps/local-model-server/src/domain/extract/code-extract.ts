/**
 * local_extract's exports, imports and structure of a file in a language core's code-analysis
 * layer reads with tree-sitter (Python, Go, Rust, Java, C#; TS/JS go to the TypeScript compiler,
 * extract-file.ts). The answers mean what docs/local-model.md ("What the answers mean") says.
 * Imports in format "json" map each module to the names the file takes from it, as the layer's
 * importedNames gives them (`d as e`, `*`, Rust's `self`; none for a module imported whole).
 */
import type { CodeLanguage, ImportFacts } from "@local-mcp/core/code-analysis";
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
  const statements = analysis.importedNames ?? [];
  // json: each module once, in source order, with the names of all its imports (each once).
  const names = new Map<string, string[]>();
  const lines = new Map<string, number>();
  for (const facts of statements) {
    const taken = names.get(facts.module) ?? [];
    if (!names.has(facts.module)) {
      names.set(facts.module, taken);
      lines.set(facts.module, facts.line);
    }
    for (const name of facts.names) if (!taken.includes(name)) taken.push(name);
  }
  const modules = [...names.keys()];
  return {
    found: analysis.imports.length > 0,
    data: format === "list" ? analysis.imports : Object.fromEntries(modules.map((module) => [module, names.get(module) ?? []])),
    lineNumbers:
      format === "list"
        ? analysis.imports.map((path) => statements.find((facts) => importPaths(analysis.language, facts).includes(path))?.line ?? null)
        : modules.map((module) => lines.get(module) ?? null),
    details: {
      language: analysis.language,
      analyzer: "tree-sitter",
      imports: statements.map((facts) => ({
        from: facts.module,
        items: facts.names,
        line: facts.line,
        ...(facts.alias === undefined ? {} : { alias: facts.alias }),
        ...(facts.static ? { static: true } : {}),
      })),
      ...syntaxErrors(analysis.syntaxErrors),
    },
  };
}

/**
 * The entries of the layer's `imports` one import gives: the module itself (Python, Go, C#, and
 * Rust's `self`), else each name's full path (Rust `a::b::C`, Java `java.util.List`).
 */
function importPaths(language: CodeLanguage, facts: ImportFacts): string[] {
  const separator = language === "rust" ? "::" : language === "java" ? "." : undefined;
  if (separator === undefined || facts.names.length === 0) return [facts.module];
  return facts.names.map((name) => {
    const original = name.split(" as ")[0] ?? name;
    return original === "self" ? facts.module : `${facts.module}${separator}${original}`;
  });
}

/** Types and functions in source order: top level at level 1, members one level below their container. */
export async function extractCodeStructure(file: TextFile, format: ExtractFormat, signal: AbortSignal): Promise<ExtractItem> {
  const analysis = await analyzeCodeFile(file, signal);
  const levelOf = (container: string | undefined) => (container === undefined ? 1 : container.split(".").length + 1);
  const outline = [
    ...analysis.types.map((t) => ({
      level: levelOf(t.container),
      kind: t.kind,
      name: t.name,
      qualified: qualifiedName(t),
      line: t.line,
      endLine: t.endLine,
    })),
    ...analysis.functions.map((f) => ({
      level: levelOf(f.container),
      kind: f.container === undefined ? "function" : "method",
      name: f.name,
      qualified: qualifiedName(f),
      line: f.line,
      endLine: f.endLine,
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
      sections: outline.map((o) => ({ name: o.qualified, kind: o.kind, level: o.level, line: o.line, end_line: o.endLine })),
      lines: countLines(file.text),
      analyzer: "tree-sitter",
      ...syntaxErrors(analysis.syntaxErrors),
    },
  };
}

function syntaxErrors(lines: readonly number[]): { syntax_error_lines?: number[] } {
  return lines.length > 0 ? { syntax_error_lines: [...lines] } : {};
}
