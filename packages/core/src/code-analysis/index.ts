// Public surface of @local-mcp/core/code-analysis: exports, imports, functions, types and module
// dependencies of a source file, from tree-sitter (issue 20; docs/local-model.md, "What the answers mean").
export { MAX_SOURCE_CHARS, analyzeSource, analyzeSourceWith, resolveLanguage } from "./analyze-source.js";
export type { AnalyzeSourceInput } from "./analyze-source.js";
export type { FunctionFacts, ImportFacts, SourceAnalysis, TypeFacts } from "./analysis-types.js";
export { loadedGrammars } from "./grammars.js";
export { languageOf, supportedLanguages } from "./languages.js";
// The node readers, for a server that reads more of a tree than the layer answers (analyzeSourceWith).
export { descendants, field, hasToken, lineOf, namedChildren, stringValue } from "./syntax.js";
export { bindingNodes } from "./script-facts.js";
export type { CodeLanguage } from "./languages.js";
