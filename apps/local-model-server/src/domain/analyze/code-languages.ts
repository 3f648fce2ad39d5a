/**
 * Which engine answers a code file exactly. TS/JS go to the TypeScript compiler (src/domain/ts/):
 * it gives more than the syntax tree — export kinds and type-only imports, parameter types and
 * return types as written, and module resolution of relative imports to files. Every other
 * language of core's code-analysis layer (tree-sitter; docs/local-model.md, "What the answers
 * mean") goes to analyzeSource. Anything else is refused with the supported languages named,
 * unless the caller asks for the model (engine "model").
 */
import { ToolError } from "@local-mcp/core";
import { analyzeSource, languageOf, supportedLanguages, type SourceAnalysis } from "@local-mcp/core/code-analysis";
import type { TextFile } from "../paths/path-guard.js";
import { isScriptPath } from "../ts/source-file.js";

export type ExactAnalyzer = "typescript" | "tree-sitter";

/** The analyzer of a file by its extension, or undefined when its language is not supported. */
export function analyzerFor(path: string): ExactAnalyzer | undefined {
  if (isScriptPath(path)) return "typescript";
  return languageOf(path) ? "tree-sitter" : undefined;
}

/** The coded error for files whose language no exact engine reads. */
export function unsupportedLanguageError(task: string, files: readonly string[]): ToolError {
  const supported = supportedLanguages();
  return new ToolError(
    "INVALID_INPUT",
    `${task} is answered exactly for ${supported.join(", ")}; not for ${files.join(", ")} (no supported extension).`,
    {
      suggestion: `Pass files in one of ${supported.join(", ")}, or engine "model" to have the configured model read these (a judgment, not an exact answer).`,
      details: { field: "files", supported, unsupported: [...files] },
    },
  );
}

/** The tree-sitter analysis of a file (its language from its extension). */
export function analyzeCodeFile(file: TextFile, signal: AbortSignal): Promise<SourceAnalysis> {
  return analyzeSource({ path: file.given, text: file.text, signal });
}

/** `Container.name` for a method, the name alone for a function or top-level type. */
export function qualifiedName(facts: { name: string; container?: string }): string {
  return facts.container === undefined ? facts.name : `${facts.container}.${facts.name}`;
}

/** Lines of the exported names the file declares itself (a function or a top-level type); absent for others. */
export function exportLines(analysis: SourceAnalysis): Map<string, number> {
  const lines = new Map<string, number>();
  for (const facts of [...analysis.functions, ...analysis.types])
    if (facts.container === undefined && facts.exported && !lines.has(facts.name)) lines.set(facts.name, facts.line);
  return lines;
}
