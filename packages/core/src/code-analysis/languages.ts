/** The languages the code-analysis layer answers, and which file names are which. */
import { ToolError } from "../errors.js";

export const CODE_LANGUAGES = ["python", "javascript", "typescript", "tsx", "go", "rust", "java", "csharp"] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

const EXTENSIONS: Readonly<Record<string, CodeLanguage>> = {
  ".py": "python",
  ".pyi": "python",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".cs": "csharp",
};

/** The supported languages, in a stable order. */
export function supportedLanguages(): CodeLanguage[] {
  return [...CODE_LANGUAGES];
}

/** The language of a file from its extension (a `.tsx` file is `tsx`), or undefined when none is supported. */
export function languageOf(path: string): CodeLanguage | undefined {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  // No extension, or a dot-file such as `.py`.
  if (dot <= 0) return undefined;
  return EXTENSIONS[name.slice(dot)];
}

export function isCodeLanguage(value: string): value is CodeLanguage {
  return (CODE_LANGUAGES as readonly string[]).includes(value);
}

/** The coded error for a language (or a file's extension) the layer does not answer. */
export function unsupportedLanguage(what: string): ToolError {
  return new ToolError("INVALID_INPUT", `${what} is not a language the code analysis supports (${CODE_LANGUAGES.join(", ")})`, {
    suggestion: `Pass one of ${CODE_LANGUAGES.join(", ")} as the language, or a file whose extension names one (.py, .js, .ts, .tsx, .go, .rs, .java, .cs).`,
    details: { supported: [...CODE_LANGUAGES] },
  });
}
