import type { Language } from "../files/languages.js";
import { analyzeBraceLanguage } from "./brace-language-analyzer.js";
import { GO_RULES, JAVA_RULES, RUST_RULES } from "./brace-language-rules.js";
import { analyzePython } from "./python-analyzer.js";
import type { FileFacts } from "./source-facts.js";
import { analyzeTypeScript } from "./typescript-analyzer.js";

/** Facts of one file: the TypeScript compiler for TS/JS, the documented line heuristic for the rest. */
export function analyzeFile(path: string, text: string, language: Language): FileFacts {
  switch (language) {
    case "typescript":
    case "javascript":
      return analyzeTypeScript(path, text, language);
    case "python":
      return analyzePython(path, text);
    case "go":
      return analyzeBraceLanguage(path, text, language, GO_RULES);
    case "rust":
      return analyzeBraceLanguage(path, text, language, RUST_RULES);
    case "java":
      return analyzeBraceLanguage(path, text, language, JAVA_RULES);
  }
}
