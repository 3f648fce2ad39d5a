/** Which reader answers which language. */
import type { Node } from "web-tree-sitter";
import type { LanguageFacts } from "./analysis-types.js";
import type { CodeLanguage } from "./languages.js";
import { pythonFacts } from "./python-facts.js";
import { scriptFacts } from "./script-facts.js";
import { goFacts } from "./go-facts.js";
import { rustFacts } from "./rust-facts.js";
import { javaFacts } from "./java-facts.js";
import { csharpFacts } from "./csharp-facts.js";

export function languageFacts(language: CodeLanguage, root: Node): LanguageFacts {
  switch (language) {
    case "python":
      return pythonFacts(root);
    case "javascript":
    case "typescript":
    case "tsx":
      return scriptFacts(root);
    case "go":
      return goFacts(root);
    case "rust":
      return rustFacts(root);
    case "java":
      return javaFacts(root);
    case "csharp":
      return csharpFacts(root);
  }
}
