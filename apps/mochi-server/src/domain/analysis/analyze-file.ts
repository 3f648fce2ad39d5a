import { analyzeSourceWith } from "@local-mcp/core/code-analysis";
import type { Language } from "../files/languages.js";
import { goFileFacts } from "./go-file-facts.js";
import { javaFileFacts } from "./java-file-facts.js";
import { pythonFileFacts } from "./python-file-facts.js";
import { rustFileFacts } from "./rust-file-facts.js";
import type { FileFacts } from "./source-facts.js";
import { frameworkFromImports, isTestPath } from "./test-files.js";
import { analyzeTypeScript } from "./typescript-analyzer.js";

const READERS = { python: pythonFileFacts, go: goFileFacts, rust: rustFileFacts, java: javaFileFacts } as const;

/**
 * Facts of one file. Python, Go, Rust and Java from core's code-analysis layer (one tree-sitter
 * parse: its exports say what is exported, its imports are Go's, Rust's and Java's imports, and
 * the per-language readers here read the rest of the same tree); TS/JS from the TypeScript
 * compiler's syntax tree (typescript-analyzer.ts).
 */
export async function analyzeFile(path: string, text: string, language: Language): Promise<FileFacts> {
  if (language === "typescript" || language === "javascript") return analyzeTypeScript(path, text, language);
  const { read } = await analyzeSourceWith({ path, language, text }, (root, analysis) => READERS[language](root, analysis));
  const facts: FileFacts = {
    path,
    language,
    lines: text.split("\n").length,
    declarations: read.declarations,
    chunks: read.chunks,
    imports: read.imports,
    errors: read.errors,
    patterns: read.patterns,
  };
  if (isTestPath(path)) {
    const framework =
      frameworkFromImports(read.imports.map((i) => i.specifier)) ??
      (language === "python" && read.declarations.some((d) => d.kind === "function" && d.name.startsWith("test_")) ? "pytest" : undefined);
    if (framework) facts.testFramework = framework;
  }
  return facts;
}
