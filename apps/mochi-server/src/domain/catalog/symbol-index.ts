import { maskCode, type MaskRules } from "../analysis/code-masking.js";
import type { CodeChunk } from "../analysis/source-facts.js";
import { compareCodePoints } from "../files/repo-walker.js";
import type { CatalogSymbol } from "./catalog-schema.js";
import type { ScannedFile } from "./scan-repository.js";

/** Exported declarations the catalog lists at most (the first in path order). */
export const MAX_SYMBOLS = 5_000;
/** A signature is cut to this many characters. */
const MAX_SIGNATURE_CHARS = 400;
/** Lines of a type, interface or enum body, or of a class's member headers, a signature keeps. */
const MAX_BODY_LINES = 12;
/** Lines of a module-level constant's definition a signature keeps. */
const MAX_VALUE_LINES = 6;

const C_LIKE: MaskRules = {
  lineComments: ["//"],
  blockComment: ["/*", "*/"],
  multilineQuotes: ["`"],
  quotes: ['"', "'"],
  shortCharQuote: false,
};
const PYTHON: MaskRules = { lineComments: ["#"], multilineQuotes: ['"""', "'''"], quotes: ['"', "'"], shortCharQuote: false };

/**
 * The exported declarations of a scanned repository with their signatures: what a completion
 * prompt shows of a function, class or type defined in another file (src/domain/context/). One
 * entry per exported chunk (a top-level declaration, or a method of a long class), sorted by path
 * and line, at most MAX_SYMBOLS.
 */
export function buildSymbolIndex(files: readonly ScannedFile[]): CatalogSymbol[] {
  const symbols: CatalogSymbol[] = [];
  for (const file of [...files].sort((a, b) => compareCodePoints(a.path, b.path))) {
    const exported = file.facts.chunks.filter((c) => c.exported);
    if (exported.length === 0) continue;
    const lines = file.text.split("\n");
    const masked = maskCode(file.text, file.language === "python" ? PYTHON : C_LIKE).split("\n");
    for (const chunk of [...exported].sort((a, b) => a.startLine - b.startLine)) {
      const signature = signatureOf(chunk, lines, masked, file.language === "python");
      if (signature === "") continue;
      symbols.push({ name: chunk.symbol, kind: chunk.kind, file: file.path, line: chunk.startLine, signature });
      if (symbols.length >= MAX_SYMBOLS) return symbols;
    }
  }
  return symbols;
}

/**
 * A declaration without its body: the header of a function or method (up to its opening brace or
 * Python's colon), a class's header with its members' headers, a type, interface or enum whole
 * (at most MAX_BODY_LINES lines). Read from the source lines with comments and strings masked for
 * the bracket count.
 */
export function signatureOf(chunk: CodeChunk, lines: readonly string[], masked: readonly string[], python: boolean): string {
  const from = chunk.startLine - 1;
  const to = Math.min(chunk.endLine, lines.length, from + 200);
  const source = lines.slice(from, to);
  const code = masked.slice(from, to);
  const whole = chunk.kind === "type" || chunk.kind === "interface" || chunk.kind === "enum";
  const value = chunk.kind === "constant" || chunk.kind === "variable";
  let out: string[];
  if (whole || value) {
    const keep = whole ? MAX_BODY_LINES : MAX_VALUE_LINES;
    out = source.length > keep ? [...source.slice(0, keep - 1), "  …"] : source;
  } else if (python) {
    out = pythonOutline(source, code, chunk.kind === "class");
  } else {
    out = braceOutline(source, code, chunk.kind === "class");
  }
  const text = dedent(out).join("\n").trimEnd();
  return text.length > MAX_SIGNATURE_CHARS ? `${text.slice(0, MAX_SIGNATURE_CHARS - 1)}…` : text;
}

/** Header lines up to the one that opens the body at bracket depth 0; for a class, its members' headers too. */
function braceOutline(source: readonly string[], code: readonly string[], members: boolean): string[] {
  const out: string[] = [];
  let depth = 0;
  let headerDone = false;
  for (let i = 0; i < source.length; i++) {
    const line = code[i] ?? "";
    const before = depth;
    for (const ch of line) {
      if (ch === "{" || ch === "(" || ch === "[") depth++;
      else if (ch === "}" || ch === ")" || ch === "]") depth--;
    }
    const trimmed = line.trimEnd();
    if (!headerDone) {
      const opensBody = trimmed.endsWith("{") && depth > 0;
      out.push(opensBody ? stripOpeningBrace(source[i] ?? "") : (source[i] ?? ""));
      if (opensBody) headerDone = true;
      else if (depth <= 0 && /[;)}\]]$|=>.*\S$/.test(trimmed)) break;
      if (!members && headerDone) break;
      continue;
    }
    if (depth <= 0) break;
    // A member of the class: a line that starts at depth 1 and ends its header there.
    if (before === 1 && trimmed.trim() !== "" && /^\s*(?:[#\w@[]|get |set |static |async |\*)/.test(line)) {
      const opens = trimmed.endsWith("{");
      out.push(opens ? stripOpeningBrace(source[i] ?? "") : (source[i] ?? ""));
      if (out.length > MAX_BODY_LINES) {
        out.push("  …");
        break;
      }
    }
  }
  return out;
}

/** The `def`/`class` header (up to its colon at depth 0); for a class, the headers of its methods too. */
function pythonOutline(source: readonly string[], code: readonly string[], members: boolean): string[] {
  const out: string[] = [];
  let depth = 0;
  let headerDone = false;
  let methodIndent = -1;
  for (let i = 0; i < source.length; i++) {
    const line = code[i] ?? "";
    const start = depth;
    for (const ch of line) {
      if (ch === "(" || ch === "[" || ch === "{") depth++;
      else if (ch === ")" || ch === "]" || ch === "}") depth--;
    }
    if (!headerDone) {
      out.push(source[i] ?? "");
      if (depth <= 0 && line.trimEnd().endsWith(":")) headerDone = true;
      if (headerDone && !members) break;
      continue;
    }
    const match = start === 0 ? /^(\s*)(?:async\s+)?def\s/.exec(line) : null;
    if (match) {
      const indent = (match[1] ?? "").length;
      if (methodIndent < 0) methodIndent = indent;
      if (indent === methodIndent) {
        out.push(source[i] ?? "");
        if (out.length > MAX_BODY_LINES) {
          out.push("    …");
          break;
        }
      }
    }
  }
  return out;
}

function stripOpeningBrace(line: string): string {
  return line.replace(/\s*\{\s*$/, "");
}

function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^\s*/.exec(l)?.[0].length ?? 0);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(cut));
}
