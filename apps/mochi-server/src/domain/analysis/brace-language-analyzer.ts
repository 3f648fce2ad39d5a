import type { Language } from "../files/languages.js";
import type { BraceLanguageRules } from "./brace-language-rules.js";
import { maskCode } from "./code-masking.js";
import {
  cleanDocComment,
  emptyErrorFacts,
  type CatchStyle,
  type CodeChunk,
  type Declaration,
  type FileFacts,
  type ImportFact,
  type PatternHit,
} from "./source-facts.js";
import { frameworkFromImports, isTestPath } from "./test-files.js";

const LONG_CONTAINER_LINES = 80;

interface OpenScope {
  symbol: string;
  endLine: number;
  /** Brace depth inside the block. */
  innerDepth: number;
  /** A long container gives its methods as chunks. */
  splitsMethods: boolean;
}

/**
 * The line heuristic for brace languages (Go, Rust, Java; documented in docs/mochi.md): comments and
 * strings are masked, the brace depth at each line is counted, and each trimmed line is matched
 * against the language's rules (brace-language-rules.ts) for declarations, imports, throws, error
 * checks and patterns. A declaration's block ends where the braces it opens close; top-level
 * declarations are chunks, and a container (class, impl) longer than 80 lines gives its methods instead.
 */
export function analyzeBraceLanguage(path: string, text: string, language: Language, rules: BraceLanguageRules): FileFacts {
  const lines = text.split("\n");
  const masked = maskCode(text, rules.mask).split("\n");
  const depthAt = braceDepths(masked);
  const declarations: Declaration[] = [];
  const chunks: CodeChunk[] = [];
  const imports: ImportFact[] = [];
  const errors = emptyErrorFacts();
  const patterns: PatternHit[] = [];
  const scopes: OpenScope[] = [];
  let inImportBlock = false;

  const blockEnd = (index: number) => blockEndIndex(masked, depthAt, index);
  const exportedName = (name: string, trimmed: string) =>
    language === "go" ? /^[A-Z]/.test(name) : language === "rust" ? /^pub\b/.test(trimmed) : /\bpublic\b/.test(trimmed);

  for (let index = 0; index < masked.length; index++) {
    const trimmed = (masked[index] as string).trim();
    const original = (lines[index] as string).trim();
    const lineNumber = index + 1;
    while (scopes.length > 0 && (scopes.at(-1) as OpenScope).endLine < lineNumber) scopes.pop();
    if (trimmed === "") continue;
    const depth = depthAt[index] ?? 0;
    const enclosing = scopes.at(-1);

    for (const rule of rules.declarations) {
      const match = rule.regex.exec(trimmed);
      const name = match?.[rule.name];
      if (!match || !name) continue;
      const kind = typeof rule.kind === "function" ? rule.kind(depth) : rule.kind;
      const owner = rule.owner === undefined ? undefined : match[rule.owner];
      const parent = owner ?? (enclosing && enclosing.innerDepth === depth ? enclosing.symbol : undefined);
      const symbol = parent ? `${parent}.${name}` : name;
      const exported = exportedName(name, trimmed);
      if (!rule.container || rule.chunk) declarations.push({ kind, name, line: lineNumber, exported });
      if (rule.chunk || rule.container) {
        const end = blockEnd(index);
        if (end === undefined) break;
        const startLine = attributeStart(lines, index, rules.attribute);
        const endLine = end + 1;
        const long = endLine - startLine + 1 > LONG_CONTAINER_LINES;
        const doc = docAbove(lines, startLine - 1);
        const chunk: CodeChunk = {
          symbol: rule.container && !rule.chunk ? `impl ${name}` : symbol,
          kind,
          startLine,
          endLine,
          exported,
          ...(doc ? { doc } : {}),
        };
        if (depth === 0 && rule.chunk && !(rule.container && long)) chunks.push(chunk);
        else if (enclosing?.splitsMethods && enclosing.innerDepth === depth && rule.chunk) chunks.push(chunk);
        scopes.push({
          symbol: rule.container && !rule.chunk ? name : symbol,
          endLine,
          innerDepth: depth + 1,
          splitsMethods: rule.container === true && (long || !rule.chunk) && depth === 0,
        });
      }
      break;
    }

    if (language === "go" && /^import\s*\($/.test(trimmed)) inImportBlock = true;
    else if (inImportBlock && /^\)/.test(trimmed)) inImportBlock = false;
    for (const rule of rules.imports) {
      if (language === "go" && rule.regex.source.startsWith("^(?:") && !inImportBlock) continue;
      const match = rule.regex.exec(original);
      if (match?.[rule.group]) {
        imports.push({ specifier: match[rule.group] as string, style: rule.style, typeOnly: false });
        break;
      }
    }

    for (const rule of rules.throws) {
      const match = rule.regex.exec(trimmed) ?? (rule.group !== undefined ? rule.regex.exec(original) : null);
      if (match) errors.thrown.push(rule.name ?? match[rule.group ?? 0] ?? "(value)");
    }
    if (rules.tryRegex?.test(trimmed)) errors.tryBlocks += 1;
    if (rules.catchRegex?.test(trimmed)) {
      const end = blockEnd(index) ?? index;
      const style = catchStyle(
        masked
          .slice(index, end + 1)
          .join("\n")
          .replace(/^[^{]*\{/, ""),
      );
      errors.catches[style] += 1;
    }
    if (rules.errorValue?.test(trimmed)) errors.errorValues += 1;
    if (rules.errorCheck?.test(trimmed)) errors.errorChecks += 1;

    for (const rule of rules.patterns) {
      const match = rule.regex.exec(trimmed);
      if (!match) continue;
      const end = rule.snippet === "block" ? (blockEnd(index) ?? index) : index;
      const symbol = (rule.symbol === undefined ? undefined : match[rule.symbol]) ?? scopes.at(-1)?.symbol ?? "(module)";
      const body = masked.slice(index, end + 1).join("\n");
      const quality = rule.pattern === "error-handling" ? errorHandlingQuality(body) : rule.quality;
      patterns.push({ pattern: rule.pattern, symbol, startLine: lineNumber, endLine: end + 1, quality });
    }
  }

  const facts: FileFacts = { path, language, lines: lines.length, declarations, chunks, imports, errors, patterns };
  if (isTestPath(path)) {
    const framework = frameworkFromImports(imports.map((i) => i.specifier));
    if (framework) facts.testFramework = framework;
  }
  return facts;
}

/** Brace depth at the start of each line. */
function braceDepths(masked: readonly string[]): number[] {
  const depths: number[] = [];
  let depth = 0;
  for (const line of masked) {
    depths.push(depth);
    for (const c of line) {
      if (c === "{") depth += 1;
      else if (c === "}") depth = Math.max(0, depth - 1);
    }
  }
  return depths;
}

/**
 * The index of the line where the block opened by the declaration on `index` closes, or undefined
 * when the declaration has no body (a `;` comes first, as in an abstract method).
 */
function blockEndIndex(masked: readonly string[], depthAt: readonly number[], index: number): number | undefined {
  const start = depthAt[index] ?? 0;
  let depth = start;
  let opened = false;
  for (let i = index; i < masked.length && i < index + 5_000; i++) {
    for (const c of masked[i] as string) {
      if (c === "{") {
        depth += 1;
        opened = true;
      } else if (c === "}") {
        depth -= 1;
        if (opened && depth <= start) return i;
      } else if (c === ";" && !opened && depth === start) return undefined;
    }
  }
  return undefined;
}

/** First line (1-based) of the declaration on `index`, counting attribute/annotation lines above it. */
function attributeStart(lines: readonly string[], index: number, attribute: RegExp): number {
  let i = index;
  while (i > 0 && attribute.test((lines[i - 1] as string).trim())) i -= 1;
  return i + 1;
}

/** The doc comment ending on the line above 1-based line `startLine`: a `/** *\/` block or `//`/`///` lines. */
function docAbove(lines: readonly string[], aboveIndex: number): string | undefined {
  let i = aboveIndex - 1;
  const last = (lines[i] ?? "").trim();
  if (last.endsWith("*/")) {
    const end = i;
    while (i >= 0 && !(lines[i] as string).includes("/*")) i -= 1;
    if (i < 0 || !(lines[i] as string).includes("/**")) return undefined;
    const doc = cleanDocComment(
      lines
        .slice(i, end + 1)
        .map((l) => l.trim())
        .join("\n"),
    );
    return doc.length > 0 ? doc : undefined;
  }
  const collected: string[] = [];
  while (i >= 0 && /^\/\/(?!go:)/.test((lines[i] as string).trim())) {
    collected.unshift((lines[i] as string).trim());
    i -= 1;
  }
  if (collected.length === 0) return undefined;
  const doc = cleanDocComment(collected.join("\n"));
  return doc.length > 0 ? doc : undefined;
}

function catchStyle(body: string): CatchStyle {
  if (/\bthrow\b/.test(body)) return "rethrow";
  if (/\breturn\b/.test(body)) return "fallback";
  return body.replace(/[{}\s]/g, "") === "" ? "swallow" : "handle";
}

function errorHandlingQuality(body: string): number {
  if (/\b(?:throw|panic)\b|Errorf\(|\bErr\(/.test(body)) return 3;
  if (/\breturn\b/.test(body)) return 2;
  return 1;
}
