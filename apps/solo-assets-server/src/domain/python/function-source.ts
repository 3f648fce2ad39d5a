/**
 * What a saved function's source says about itself: its signature and docstring (both are
 * embedded for search and shown to agents), found without running Python. Only a top-level
 * `def` (column 0, optionally `async`, decorators allowed) counts as the function.
 */

/** A Python identifier as a function name (ASCII: names are typed by agents and people). */
export const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

export interface FunctionSource {
  /** `def name(a: int, b: int = 2) -> int`, whitespace collapsed. */
  signature: string;
  /** The docstring with common indentation removed (inspect.cleandoc); "" when there is none. */
  docstring: string;
  isAsync: boolean;
}

const QUOTES = ['"""', "'''", '"', "'"] as const;

/** Index just past the string literal starting at `start` (at its opening quote). */
function skipString(code: string, start: number): number {
  const quote = QUOTES.find((q) => code.startsWith(q, start)) ?? '"';
  let i = start + quote.length;
  while (i < code.length) {
    if (code[i] === "\\") {
      i += 2;
      continue;
    }
    if (code.startsWith(quote, i)) return i + quote.length;
    if (quote.length === 1 && code[i] === "\n") return i;
    i++;
  }
  return code.length;
}

/** Index of the `:` that ends a def header whose `(` is at `open`, or -1. */
function headerEnd(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'") {
      i = skipString(code, i) - 1;
    } else if (c === "#") {
      const newline = code.indexOf("\n", i);
      if (newline < 0) return -1;
      i = newline;
    } else if (c === "(" || c === "[" || c === "{") {
      depth++;
    } else if (c === ")" || c === "]" || c === "}") {
      depth--;
    } else if (c === ":" && depth === 0) {
      return i;
    }
  }
  return -1;
}

/** Python's inspect.cleandoc: strip the first line, dedent the rest, drop blank edges. */
export function cleandoc(text: string): string {
  const lines = text.replace(/\t/g, "        ").split("\n");
  const rest = lines.slice(1).filter((line) => line.trim().length > 0);
  const indent = rest.length === 0 ? 0 : Math.min(...rest.map((line) => line.length - line.trimStart().length));
  const out = [(lines[0] ?? "").trim(), ...lines.slice(1).map((line) => line.slice(indent).trimEnd())];
  while (out.length > 0 && out[0] === "") out.shift();
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.join("\n");
}

function docstringAfter(code: string, colon: number): string {
  let i = colon + 1;
  for (;;) {
    while (i < code.length && /\s/.test(code[i] ?? "")) i++;
    if (code[i] !== "#") break;
    const newline = code.indexOf("\n", i);
    if (newline < 0) return "";
    i = newline;
  }
  const prefix = /^[rRuU]?/.exec(code.slice(i, i + 1))?.[0] ?? "";
  const quoteAt = i + prefix.length;
  const quote = QUOTES.find((q) => code.startsWith(q, quoteAt));
  if (!quote) return "";
  const end = skipString(code, quoteAt);
  const body = code.slice(quoteAt + quote.length, Math.max(quoteAt + quote.length, end - quote.length));
  return cleandoc(prefix.toLowerCase() === "r" ? body : body.replace(/\\n/g, "\n"));
}

/** The top-level function `name` in `code`, or undefined when the code does not define it. */
export function findTopLevelFunction(code: string, name: string): FunctionSource | undefined {
  if (!FUNCTION_NAME.test(name)) return undefined;
  const def = new RegExp(`^(async[ \\t]+)?def[ \\t]+${name}[ \\t]*\\(`, "m").exec(code);
  if (!def) return undefined;
  const open = def.index + def[0].length - 1;
  const colon = headerEnd(code, open);
  if (colon < 0) {
    // An unfinished header (a syntax error the gate will report): the def line is the signature.
    const lineEnd = code.indexOf("\n", def.index);
    return { signature: code.slice(def.index, lineEnd < 0 ? undefined : lineEnd).trim(), docstring: "", isAsync: def[1] !== undefined };
  }
  const signature = code
    .slice(def.index, colon)
    .replace(/#[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .replace(/\(\s+/g, "(")
    .replace(/,?\s*\)/g, (m) => (m.trim().startsWith(",") ? ")" : m.trimStart()))
    .trim();
  return { signature, docstring: docstringAfter(code, colon), isAsync: def[1] !== undefined };
}

/** The parameter names of a signature (`def f(a: int, *args, b=2)` → a, args, b), without types. */
export function parameterNames(signature: string): string[] {
  const open = signature.indexOf("(");
  if (open < 0) return [];
  const names: string[] = [];
  let depth = 0;
  let piece = "";
  const flush = () => {
    const name = /^\s*\**\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(piece)?.[1];
    if (name && name !== "self" && name !== "cls") names.push(name);
    piece = "";
  };
  for (const c of signature.slice(open + 1)) {
    if (c === "(" || c === "[" || c === "{") depth++;
    if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) break;
      depth--;
    }
    if (c === "," && depth === 0) flush();
    else piece += c;
  }
  flush();
  return names;
}
