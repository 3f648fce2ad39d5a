/** The languages the indexer reads: TS/JS through the TypeScript compiler, the rest by line heuristics. */
export const LANGUAGES = ["typescript", "javascript", "python", "go", "rust", "java"] as const;
export type Language = (typeof LANGUAGES)[number];

const BY_EXTENSION: Readonly<Record<string, Language>> = {
  ".ts": "typescript",
  ".tsx": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".py": "python",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
};

/** How a language is analysed: a real parser, or the documented line heuristic. */
export type Analysis = "compiler" | "heuristic";

export function analysisFor(language: Language): Analysis {
  return language === "typescript" || language === "javascript" ? "compiler" : "heuristic";
}

/** The extension that decides the language (`.d.ts` is TypeScript), or undefined. */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot).toLowerCase();
}

export function languageOf(path: string): Language | undefined {
  return BY_EXTENSION[extensionOf(path)];
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
  };
  return names[language];
}

/** The fence tag for Markdown code blocks. */
export function fenceTag(language: Language): string {
  return language === "typescript" ? "ts" : language === "javascript" ? "js" : language === "python" ? "py" : language;
}
