/**
 * The languages the indexer reads, and how mochi names them. Which file is which language is core's
 * table (@local-mcp/core/code-analysis, languages.ts: `.tsx` is TypeScript here, `.pyi` Python,
 * `.cs` C#).
 */
import { languageOf as codeLanguageOf } from "@local-mcp/core/code-analysis";

export const LANGUAGES = ["typescript", "javascript", "python", "go", "rust", "java", "csharp"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The extension of a file name, lower-cased (`.d.ts` files give `.ts`), or "" when it has none. */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot).toLowerCase();
}

export function languageOf(path: string): Language | undefined {
  const language = codeLanguageOf(path);
  if (language === "tsx") return "typescript";
  return (LANGUAGES as readonly string[]).includes(language ?? "") ? (language as Language) : undefined;
}

/** A name a person reads: "TypeScript", "Python". */
export function languageName(language: Language): string {
  const names: Record<Language, string> = {
    typescript: "TypeScript",
    javascript: "JavaScript",
    python: "Python",
    go: "Go",
    rust: "Rust",
    java: "Java",
    csharp: "C#",
  };
  return names[language];
}

/** The fence tag for Markdown code blocks. */
export function fenceTag(language: Language): string {
  return language === "typescript" ? "ts" : language === "javascript" ? "js" : language === "python" ? "py" : language;
}
