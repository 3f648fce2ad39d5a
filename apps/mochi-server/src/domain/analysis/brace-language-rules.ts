import type { MaskRules } from "./code-masking.js";
import type { IdentifierKind, ImportStyle, PatternName } from "./source-facts.js";

/** One declaration form: `regex` on a masked, trimmed line; `name` is the group holding the name. */
export interface DeclarationRule {
  regex: RegExp;
  name: number;
  /** The kind, or a function of the nesting depth (functions nested in a type are methods). */
  kind: IdentifierKind | ((depth: number) => IdentifierKind);
  /** Group holding the receiver/owner type for a symbol such as `Server.Close`. */
  owner?: number;
  /** Whether this declaration is a unit of code (a chunk) when it has a body. */
  chunk: boolean;
  /** A block that holds methods (class, impl): long ones give their methods as chunks. */
  container?: boolean;
}

/** A construct recognised on a masked, trimmed line; `symbol` is the group naming it (else the enclosing declaration). */
export interface PatternRule {
  pattern: PatternName;
  regex: RegExp;
  symbol?: number;
  /** `block`: the snippet runs to the end of the braces opened on this line. */
  snippet: "block" | "line";
  quality: number;
}

export interface BraceLanguageRules {
  mask: MaskRules;
  declarations: readonly DeclarationRule[];
  /** Matched on the original trimmed line (specifiers are inside strings, which masking blanks). */
  imports: ReadonlyArray<{ regex: RegExp; group: number; style: ImportStyle }>;
  /** Throws, raises and panics: the group naming what is thrown, or a fixed name. */
  throws: ReadonlyArray<{ regex: RegExp; group?: number; name?: string }>;
  tryRegex?: RegExp;
  catchRegex?: RegExp;
  errorValue?: RegExp;
  errorCheck?: RegExp;
  patterns: readonly PatternRule[];
  /** Lines above a declaration that are part of it (annotations, attributes). */
  attribute: RegExp;
}

const C_LIKE_MASK = {
  lineComments: ["//"],
  blockComment: ["/*", "*/"],
  multilineQuotes: [] as string[],
  quotes: ['"'],
  shortCharQuote: true,
} as const;

export const GO_RULES: BraceLanguageRules = {
  mask: { ...C_LIKE_MASK, multilineQuotes: ["`"] },
  declarations: [
    { regex: /^func\s+\(\s*\w*\s*\*?\s*(\w+)[^)]*\)\s*([A-Za-z_]\w*)\s*[[(]/, name: 2, owner: 1, kind: "method", chunk: true },
    { regex: /^func\s+([A-Za-z_]\w*)\s*[[(]/, name: 1, kind: "function", chunk: true },
    { regex: /^type\s+([A-Za-z_]\w*)(?:\[[^\]]*\])?\s+struct\b/, name: 1, kind: "class", chunk: true },
    { regex: /^type\s+([A-Za-z_]\w*)(?:\[[^\]]*\])?\s+interface\b/, name: 1, kind: "interface", chunk: true },
    { regex: /^type\s+([A-Za-z_]\w*)\s+(?!struct\b|interface\b)\S/, name: 1, kind: "type", chunk: false },
    { regex: /^const\s+([A-Za-z_]\w*)/, name: 1, kind: "constant", chunk: false },
    { regex: /^var\s+([A-Za-z_]\w*)/, name: 1, kind: (d) => (d === 0 ? "variable" : "variable"), chunk: false },
    { regex: /^([A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)*\s*:=/, name: 1, kind: "variable", chunk: false },
  ],
  imports: [
    { regex: /^import\s+(?:[\w.]+\s+)?"([^"]+)"/, group: 1, style: "go-import" },
    { regex: /^(?:[\w.]+\s+)?"([^"]+)"$/, group: 1, style: "go-import" },
  ],
  throws: [
    { regex: /\berrors\.New\(/, name: "errors.New" },
    { regex: /\bfmt\.Errorf\(/, name: "fmt.Errorf" },
    { regex: /\bpanic\(/, name: "panic" },
  ],
  errorValue: /^return\b.*\berr\b|^return\b.*(?:errors\.New|fmt\.Errorf)\(/,
  errorCheck: /\bif\s+(?:.*;\s*)?err\s*!=\s*nil\b/,
  patterns: [
    { pattern: "error-handling", regex: /\bif\s+(?:.*;\s*)?err\s*!=\s*nil\s*\{/, snippet: "block", quality: 1 },
    {
      pattern: "custom-error-class",
      regex: /^func\s+\(\s*\w*\s*\*?\s*(\w+)\)\s*Error\(\)\s*string/,
      symbol: 1,
      snippet: "block",
      quality: 2,
    },
    { pattern: "custom-error-class", regex: /^type\s+(\w+Error)\s+struct\b/, symbol: 1, snippet: "block", quality: 2 },
    { pattern: "factory-function", regex: /^func\s+(New\w*)\s*\(/, symbol: 1, snippet: "block", quality: 2 },
    { pattern: "disposable-resource", regex: /^func\s+\(\s*\w*\s*\*?\s*(\w+)\)\s*Close\(\)/, symbol: 1, snippet: "block", quality: 1 },
    { pattern: "registry", regex: /^func\s+(?:\([^)]*\)\s*)?(Register\w*)\s*\(/, symbol: 1, snippet: "block", quality: 1 },
    { pattern: "options-object", regex: /^type\s+(\w+(?:Options|Config))\s+struct\b/, symbol: 1, snippet: "block", quality: 1 },
    {
      pattern: "options-object",
      regex: /^func\s+(?:\([^)]*\)\s*)?(\w+)\s*\([^)]*\.\.\.\w*Option\b/,
      symbol: 1,
      snippet: "block",
      quality: 2,
    },
  ],
  attribute: /^\/\/go:/,
};

export const RUST_RULES: BraceLanguageRules = {
  mask: { ...C_LIKE_MASK, multilineQuotes: ['"'], quotes: [] },
  declarations: [
    {
      regex: /^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+([A-Za-z_]\w*)/,
      name: 1,
      kind: (d) => (d > 0 ? "method" : "function"),
      chunk: true,
    },
    { regex: /^(?:pub(?:\([^)]*\))?\s+)?struct\s+([A-Za-z_]\w*)/, name: 1, kind: "class", chunk: true },
    { regex: /^(?:pub(?:\([^)]*\))?\s+)?enum\s+([A-Za-z_]\w*)/, name: 1, kind: "enum", chunk: true },
    { regex: /^(?:pub(?:\([^)]*\))?\s+)?trait\s+([A-Za-z_]\w*)/, name: 1, kind: "interface", chunk: true },
    { regex: /^(?:pub(?:\([^)]*\))?\s+)?type\s+([A-Za-z_]\w*)/, name: 1, kind: "type", chunk: false },
    { regex: /^(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(?:mut\s+)?([A-Za-z_]\w*)/, name: 1, kind: "constant", chunk: false },
    { regex: /^let\s+(?:mut\s+)?([A-Za-z_]\w*)/, name: 1, kind: "variable", chunk: false },
    {
      regex: /^impl\b(?:<[^>]*>)?\s*(?:[\w:]+(?:<[^>]*>)?\s+for\s+)?([A-Za-z_]\w*)/,
      name: 1,
      kind: "class",
      chunk: false,
      container: true,
    },
  ],
  imports: [{ regex: /^(?:pub\s+)?use\s+([\w:]+)/, group: 1, style: "rust-use" }],
  throws: [
    { regex: /\bpanic!\(/, name: "panic!" },
    { regex: /\.unwrap\(\)/, name: "unwrap()" },
    { regex: /\.expect\(/, name: "expect()" },
  ],
  errorValue: /\bErr\(/,
  errorCheck: /\?\s*[;.)]/,
  patterns: [
    {
      pattern: "result-type",
      regex: /^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+(\w+)[^{;]*->\s*(?:[\w:]+::)?Result\b/,
      symbol: 1,
      snippet: "block",
      quality: 2,
    },
    {
      pattern: "custom-error-class",
      regex: /^(?:pub(?:\([^)]*\))?\s+)?(?:enum|struct)\s+(\w*Error)\b/,
      symbol: 1,
      snippet: "block",
      quality: 2,
    },
    {
      pattern: "custom-error-class",
      regex: /^impl\b.*\b(?:std::)?(?:error::)?Error\s+for\s+(\w+)/,
      symbol: 1,
      snippet: "block",
      quality: 1,
    },
    { pattern: "error-handling", regex: /\bmatch\b.*\{/, snippet: "block", quality: 1 },
    { pattern: "factory-function", regex: /^(?:pub(?:\([^)]*\))?\s+)?fn\s+(new\w*)\s*[<(]/, symbol: 1, snippet: "block", quality: 2 },
    { pattern: "disposable-resource", regex: /^impl\b.*\bDrop\s+for\s+(\w+)/, symbol: 1, snippet: "block", quality: 1 },
    {
      pattern: "fluent-builder",
      regex: /^(?:pub(?:\([^)]*\))?\s+)?fn\s+(\w+)\s*\(\s*(?:mut\s+)?self\b[^)]*\)\s*->\s*Self\b/,
      symbol: 1,
      snippet: "block",
      quality: 1,
    },
    { pattern: "discriminated-union", regex: /^(?:pub(?:\([^)]*\))?\s+)?enum\s+(\w+)/, symbol: 1, snippet: "block", quality: 1 },
  ],
  attribute: /^#!?\[/,
};

export const JAVA_RULES: BraceLanguageRules = {
  mask: { ...C_LIKE_MASK, multilineQuotes: ['"""'] },
  declarations: [
    {
      regex: /^(?:(?:public|private|protected|static|final|abstract|sealed|non-sealed)\s+)*class\s+([A-Za-z_]\w*)/,
      name: 1,
      kind: "class",
      chunk: true,
      container: true,
    },
    {
      regex: /^(?:(?:public|private|protected|static|final|sealed|non-sealed)\s+)*interface\s+([A-Za-z_]\w*)/,
      name: 1,
      kind: "interface",
      chunk: true,
      container: true,
    },
    {
      regex: /^(?:(?:public|private|protected|static|final)\s+)*enum\s+([A-Za-z_]\w*)/,
      name: 1,
      kind: "enum",
      chunk: true,
      container: true,
    },
    { regex: /^(?:(?:public|private|protected|static|final)\s+)*record\s+([A-Za-z_]\w*)/, name: 1, kind: "class", chunk: true },
    {
      regex:
        /^(?!(?:return|new|else|throw|if|for|while|switch|catch|case|do|try|yield|assert|break|continue)\b)(?:(?:public|private|protected|static|final|abstract|synchronized|default|native)\s+)*(?:<[^>]+>\s+)?[\w.<>[\],?\s]+?\s+([a-z_]\w*)\s*\([^;]*$/,
      name: 1,
      kind: "method",
      chunk: true,
    },
    {
      regex: /^(?:(?:public|private|protected)\s+)?static\s+final\s+[\w.<>[\],?\s]+?\s+([A-Za-z_]\w*)\s*=/,
      name: 1,
      kind: "constant",
      chunk: false,
    },
    {
      regex:
        /^(?!(?:return|new|else|throw|if|for|while|switch|catch|case|do|try|yield|assert|break|continue)\b)(?:(?:public|private|protected|final)\s+)*[\w.<>[\],?]+\s+([a-z_]\w*)\s*(?:=|;)/,
      name: 1,
      kind: (d) => (d <= 1 ? "property" : "variable"),
      chunk: false,
    },
  ],
  imports: [{ regex: /^import\s+(?:static\s+)?([\w.]+)/, group: 1, style: "java-import" }],
  throws: [{ regex: /\bthrow\s+new\s+([\w.]+)/, group: 1 }],
  tryRegex: /^try\b/,
  catchRegex: /\bcatch\s*\(/,
  patterns: [
    {
      pattern: "custom-error-class",
      regex: /\bclass\s+(\w+)\s+extends\s+\w*(?:Exception|Error)\b/,
      symbol: 1,
      snippet: "block",
      quality: 2,
    },
    { pattern: "error-handling", regex: /^try\b/, snippet: "block", quality: 1 },
    {
      pattern: "factory-function",
      regex: /\bstatic\s+[\w<>[\],?\s]+\s+((?:create|of|from|new)\w*)\s*\(/,
      symbol: 1,
      snippet: "block",
      quality: 2,
    },
    {
      pattern: "disposable-resource",
      regex: /\bclass\s+(\w+)\b.*\bimplements\b.*\b(?:AutoCloseable|Closeable)\b/,
      symbol: 1,
      snippet: "line",
      quality: 1,
    },
    { pattern: "fluent-builder", regex: /^return\s+this\s*;/, snippet: "line", quality: 1 },
    { pattern: "abstract-base-class", regex: /\babstract\s+class\s+(\w+)/, symbol: 1, snippet: "block", quality: 2 },
    { pattern: "data-class", regex: /\brecord\s+(\w+)\s*\(/, symbol: 1, snippet: "block", quality: 2 },
    { pattern: "registry", regex: /\bvoid\s+(register\w*)\s*\(/, symbol: 1, snippet: "block", quality: 1 },
  ],
  attribute: /^@\w/,
};
