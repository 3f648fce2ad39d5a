import type { Node } from "web-tree-sitter";
import { analyzeSourceWith, type SourceAnalysis } from "@local-mcp/core/code-analysis";
import type { Language } from "../files/languages.js";
import { csharpFileFacts } from "./csharp-file-facts.js";
import { goFileFacts } from "./go-file-facts.js";
import { javaFileFacts } from "./java-file-facts.js";
import { pythonFileFacts } from "./python-file-facts.js";
import { rustFileFacts } from "./rust-file-facts.js";
import type { FileFacts } from "./source-facts.js";
import type { FactsCollector } from "./syntax-tree-facts.js";
import { frameworkFromImports, isTestPath } from "./test-files.js";
import { scriptFileFacts } from "./script-file-facts.js";

const READERS = { python: pythonFileFacts, go: goFileFacts, rust: rustFileFacts, java: javaFileFacts, csharp: csharpFileFacts } as const;

function readFacts(language: Language, root: Node, analysis: SourceAnalysis): { facts: FactsCollector; usesTestGlobals: boolean } {
  if (language === "typescript" || language === "javascript") return scriptFileFacts(root);
  return { facts: READERS[language](root, analysis), usesTestGlobals: false };
}

/**
 * Facts of one file from core's code-analysis layer: one tree-sitter parse (the grammar from the
 * path: `.tsx` TSX, `.js`/`.jsx` JavaScript) gives core's exports and imports — what is exported
 * in Python, the imports of Go, Rust and Java — and the per-language readers here read the rest of
 * the same tree (script-file-facts.ts, python-file-facts.ts, go-, rust-, java-, csharp-file-facts.ts).
 */
export async function analyzeFile(path: string, text: string, language: Language): Promise<FileFacts> {
  const { read: reading } = await analyzeSourceWith({ path, text }, (root, analysis) => readFacts(language, root, analysis));
  const read = reading.facts;
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
      (language === "python" && read.declarations.some((d) => d.kind === "function" && d.name.startsWith("test_"))
        ? "pytest"
        : undefined) ??
      (reading.usesTestGlobals ? "describe/it globals" : undefined);
    if (framework) facts.testFramework = framework;
  }
  return facts;
}
