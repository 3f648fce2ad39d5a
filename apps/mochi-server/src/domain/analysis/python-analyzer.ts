import { indentationOf, maskCode } from "./code-masking.js";
import {
  emptyErrorFacts,
  type CatchStyle,
  type CodeChunk,
  type Declaration,
  type FileFacts,
  type ImportFact,
  type PatternHit,
} from "./source-facts.js";
import { frameworkFromImports, isTestPath } from "./test-files.js";

const LONG_CLASS_LINES = 80;
const PYTHON_MASK = { lineComments: ["#"], multilineQuotes: ['"""', "'''"], quotes: ['"', "'"], shortCharQuote: false } as const;

interface OpenBlock {
  kind: "class" | "def";
  name: string;
  /** Dotted name: `Report.render`. */
  symbol: string;
  indent: number;
  startLine: number;
  topLevel: boolean;
  exported: boolean;
  doc?: string;
  returnsSelf: boolean;
  methods: CodeChunk[];
  disposable: boolean;
  /** The method chunk and pattern hits whose end is this block's end. */
  endsWith: Array<{ endLine: number }>;
}

interface OpenTry {
  indent: number;
  startLine: number;
  symbol: string;
  /** What the except clauses do, gathered while their bodies are read. */
  styles: CatchStyle[];
  inExcept: boolean;
  exceptBody: { raises: boolean; returns: boolean; onlyPass: boolean; statements: number };
}

/**
 * The line heuristic for Python (documented in docs/mochi.md): strings and comments are masked, then
 * each line is read with its indentation. `def`/`class` open blocks that end at the next line
 * indented as much or less; `def` directly in a class is a method; top-level names assigned are
 * constants when UPPER_CASE, else variables; `import` / `from … import`, `raise`, `try`/`except`
 * and decorators are read line by line. Docstrings are the string right after a `def`/`class`.
 */
export function analyzePython(path: string, text: string): FileFacts {
  const lines = text.split("\n");
  const masked = maskCode(text, PYTHON_MASK).split("\n");
  const declarations: Declaration[] = [];
  const chunks: CodeChunk[] = [];
  const imports: ImportFact[] = [];
  const errors = emptyErrorFacts();
  const patterns: PatternHit[] = [];
  const stack: OpenBlock[] = [];
  const tries: OpenTry[] = [];
  let decorators: { line: number; names: string[] } | undefined;
  let lastCode = 0;
  /** Continuation lines of a multi-line `def`/`class` header are part of the header. */
  let headerEnd = -1;

  const closeBlock = (block: OpenBlock, endLine: number) => {
    for (const item of block.endsWith) item.endLine = endLine;
    const long = endLine - block.startLine + 1 > LONG_CLASS_LINES;
    if (block.kind === "class") {
      if (block.returnsSelf)
        patterns.push({ pattern: "fluent-builder", symbol: block.symbol, startLine: block.startLine, endLine, quality: 1 });
      if (block.disposable)
        patterns.push({ pattern: "disposable-resource", symbol: block.symbol, startLine: block.startLine, endLine, quality: 1 });
    }
    if (!block.topLevel) return;
    if (block.kind === "class" && long) chunks.push(...block.methods);
    else
      chunks.push({
        symbol: block.symbol,
        kind: block.kind === "class" ? "class" : "function",
        startLine: block.startLine,
        endLine,
        exported: block.exported,
        ...(block.doc ? { doc: block.doc } : {}),
      });
  };

  const closeTry = (open: OpenTry, endLine: number) => {
    finishExcept(open);
    const worst = open.styles.includes("rethrow")
      ? "rethrow"
      : open.styles.includes("fallback")
        ? "fallback"
        : open.styles.includes("handle")
          ? "handle"
          : "swallow";
    const quality: Record<CatchStyle, number> = { rethrow: 3, fallback: 2, handle: 1, swallow: 0 };
    if (open.styles.length > 0)
      patterns.push({ pattern: "error-handling", symbol: open.symbol, startLine: open.startLine, endLine, quality: quality[worst] });
  };

  const finishExcept = (open: OpenTry) => {
    if (!open.inExcept) return;
    const body = open.exceptBody;
    const style: CatchStyle = body.raises
      ? "rethrow"
      : body.returns
        ? "fallback"
        : body.onlyPass || body.statements === 0
          ? "swallow"
          : "handle";
    open.styles.push(style);
    errors.catches[style] += 1;
    open.inExcept = false;
  };

  for (let index = 0; index < masked.length; index++) {
    const code = masked[index] as string;
    const lineNumber = index + 1;
    if (code.trim() === "") continue;
    if (index <= headerEnd) {
      lastCode = lineNumber;
      continue;
    }
    const indent = indentationOf(code);
    const trimmed = code.trim();

    // A line indented as much as or less than an open block's header ends that block.
    while (stack.length > 0 && indent <= (stack.at(-1) as OpenBlock).indent) closeBlock(stack.pop() as OpenBlock, lastCode);
    while (tries.length > 0) {
      const open = tries.at(-1) as OpenTry;
      const continues = indent === open.indent && /^(?:except\b|else\s*:|finally\s*:)/.test(trimmed);
      if (indent > open.indent || continues) break;
      closeTry(tries.pop() as OpenTry, lastCode);
    }
    lastCode = lineNumber;
    const scope = stack.at(-1);
    const symbol = scope?.symbol ?? "(module)";

    const openTry = tries.at(-1);
    if (openTry?.inExcept && indent > openTry.indent) {
      openTry.exceptBody.statements += 1;
      if (/^raise\b/.test(trimmed)) openTry.exceptBody.raises = true;
      if (/^return\b/.test(trimmed)) openTry.exceptBody.returns = true;
      if (!/^pass\b/.test(trimmed)) openTry.exceptBody.onlyPass = false;
    }

    const decorator = /^@([A-Za-z_][\w.]*)/.exec(trimmed);
    if (decorator) {
      decorators = { line: decorators?.line ?? lineNumber, names: [...(decorators?.names ?? []), decorator[1] as string] };
      continue;
    }

    const def = /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/.exec(trimmed);
    const cls = /^class\s+([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?\s*:/.exec(trimmed);
    if (def || cls) {
      const name = (def?.[1] ?? cls?.[1]) as string;
      const inClass = scope?.kind === "class";
      const startLine = decorators?.line ?? lineNumber;
      const names = decorators?.names ?? [];
      decorators = undefined;
      const block: OpenBlock = {
        kind: def ? "def" : "class",
        name,
        symbol: scope ? `${scope.symbol}.${name}` : name,
        indent,
        startLine,
        topLevel: indent === 0,
        exported: !name.startsWith("_"),
        returnsSelf: false,
        methods: [],
        disposable: false,
        endsWith: [],
      };
      const blockHit = (pattern: PatternHit["pattern"], quality = 1) => {
        const hit: PatternHit = { pattern, symbol: block.symbol, startLine, endLine: lineNumber, quality };
        patterns.push(hit);
        block.endsWith.push(hit);
      };
      headerEnd = headerEndIndex(masked, index);
      const doc = docstringAfter(lines, masked, headerEnd);
      if (doc) block.doc = doc;
      if (def) {
        declarations.push({ kind: inClass ? "method" : "function", name, line: lineNumber, exported: block.exported && indent === 0 });
        for (const parameter of parameterNames(masked, index))
          declarations.push({ kind: "parameter", name: parameter, line: lineNumber, exported: false });
        if (/^(?:create|make|build|new)_/.test(name)) blockHit("factory-function");
        if (/^register(?:_|$)/.test(name)) blockHit("registry");
        if (inClass && scope && ["__enter__", "__exit__", "__aenter__", "__aexit__", "close"].includes(name)) scope.disposable = true;
        if (names.some((n) => /(?:^|\.)register$/.test(n))) blockHit("registry", 2);
        if (inClass && scope && scope.topLevel) {
          const method: CodeChunk = {
            symbol: block.symbol,
            kind: "method",
            startLine,
            endLine: lineNumber,
            exported: scope.exported,
            ...(doc ? { doc } : {}),
          };
          scope.methods.push(method);
          block.endsWith.push(method);
        }
      } else {
        declarations.push({ kind: "class", name, line: lineNumber, exported: block.exported && indent === 0 });
        const bases = (cls?.[2] ?? "")
          .split(",")
          .map((b) => b.trim())
          .filter(Boolean);
        if (bases.some((b) => /(?:Error|Exception)$/.test(b))) blockHit("custom-error-class", 2);
        if (bases.some((b) => /^(?:abc\.)?ABC$/.test(b) || /metaclass\s*=\s*(?:abc\.)?ABCMeta/.test(b))) blockHit("abstract-base-class", 2);
        if (bases.some((b) => /(?:^|\.)(?:BaseModel|Schema)$/.test(b))) blockHit("schema-validation", 1);
        if (names.some((n) => /(?:^|\.)dataclass$/.test(n)) || bases.some((b) => /(?:^|\.)(?:NamedTuple|TypedDict)$/.test(b)))
          blockHit("data-class", 2);
      }
      stack.push(block);
      continue;
    }
    decorators = undefined;

    // Method bodies: `return self` makes the class fluent.
    if (/^return\s+self\s*$/.test(trimmed)) {
      const owner = [...stack].reverse().find((b) => b.kind === "class");
      if (owner) owner.returnsSelf = true;
    }

    // A class body's annotated field without a value (`order_id: str`, dataclasses) is a property.
    const field = scope?.kind === "class" ? /^([A-Za-z_]\w*)\s*:\s*[^=]+$/.exec(trimmed) : null;
    if (field) declarations.push({ kind: "property", name: field[1] as string, line: lineNumber, exported: false });
    const assignment = /^([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)\s*(.*)$/.exec(trimmed);
    if (assignment) {
      const name = assignment[1] as string;
      const value = assignment[2] ?? "";
      if (indent === 0) {
        declarations.push({
          kind: /^[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "variable",
          name,
          line: lineNumber,
          exported: !name.startsWith("_"),
        });
        if (/regist|handlers|plugins/i.test(name) && /^(?:\{|dict\()/.test(value))
          patterns.push({ pattern: "registry", symbol: name, startLine: lineNumber, endLine: lineNumber, quality: 1 });
      } else if (scope?.kind === "def") {
        declarations.push({ kind: "variable", name, line: lineNumber, exported: false });
      } else if (scope?.kind === "class") {
        declarations.push({ kind: /^[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "property", name, line: lineNumber, exported: false });
      }
    }

    const importLine = /^import\s+(.+)$/.exec(trimmed);
    if (importLine) {
      for (const part of (importLine[1] as string).split(",")) {
        const module = part
          .trim()
          .split(/\s+as\s+/)[0]
          ?.trim();
        if (module) imports.push({ specifier: module, style: "python-import", typeOnly: false });
      }
    }
    const fromLine = /^from\s+(\.*[\w.]*)\s+import\b/.exec(trimmed);
    if (fromLine) imports.push({ specifier: fromLine[1] as string, style: "python-from", typeOnly: false });

    const raise = /^raise\b\s*([A-Za-z_][\w.]*)?/.exec(trimmed);
    if (raise) errors.thrown.push(raise[1] ?? "(re-raise)");

    if (/^try\s*:/.test(trimmed)) {
      errors.tryBlocks += 1;
      tries.push({
        indent,
        startLine: lineNumber,
        symbol,
        styles: [],
        inExcept: false,
        exceptBody: { raises: false, returns: false, onlyPass: true, statements: 0 },
      });
    } else if (/^except\b/.test(trimmed) || /^(?:else|finally)\s*:/.test(trimmed)) {
      const open = tries.at(-1);
      if (open && open.indent === indent) {
        finishExcept(open);
        if (/^except\b/.test(trimmed)) {
          open.inExcept = true;
          open.exceptBody = { raises: false, returns: false, onlyPass: true, statements: 0 };
          // `except ValueError: raise …` on one line
          const inline = /^except\b[^:]*:\s*(\S.*)$/.exec(trimmed);
          if (inline) {
            open.exceptBody.statements += 1;
            open.exceptBody.raises = /^raise\b/.test(inline[1] as string);
            open.exceptBody.returns = /^return\b/.test(inline[1] as string);
            open.exceptBody.onlyPass = /^pass\b/.test(inline[1] as string);
          }
        }
      }
    }
  }
  while (tries.length > 0) closeTry(tries.pop() as OpenTry, lastCode);
  while (stack.length > 0) closeBlock(stack.pop() as OpenBlock, lastCode);
  chunks.sort((a, b) => a.startLine - b.startLine);
  patterns.sort((a, b) => a.startLine - b.startLine || a.pattern.localeCompare(b.pattern));

  const facts: FileFacts = { path, language: "python", lines: lines.length, declarations, chunks, imports, errors, patterns };
  if (isTestPath(path)) {
    const framework =
      frameworkFromImports(imports.map((i) => i.specifier)) ??
      (declarations.some((d) => d.kind === "function" && d.name.startsWith("test_")) ? "pytest" : undefined);
    if (framework) facts.testFramework = framework;
  }
  return facts;
}

/** Parameter names of the `def` on `index`, reading on until its parentheses close. */
function parameterNames(masked: readonly string[], index: number): string[] {
  let text = "";
  let depth = 0;
  let started = false;
  for (let i = index; i < masked.length && i < index + 40; i++) {
    for (const c of masked[i] as string) {
      if (c === "(") {
        depth += 1;
        if (!started) {
          started = true;
          continue;
        }
      }
      if (c === ")") {
        depth -= 1;
        if (started && depth === 0) return splitParameters(text);
      }
      if (started) text += c;
    }
    text += " ";
  }
  return splitParameters(text);
}

function splitParameters(text: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of `${text},`) {
    if ("([{".includes(c)) depth += 1;
    if (")]}".includes(c)) depth -= 1;
    if (c === "," && depth === 0) {
      const name = /^\s*\**\s*([A-Za-z_]\w*)/.exec(current)?.[1];
      if (name && name !== "self" && name !== "cls") names.push(name);
      current = "";
    } else current += c;
  }
  return names;
}

/** Index of the line that ends the `def`/`class` header starting on `index` (brackets closed, then `:`). */
function headerEndIndex(masked: readonly string[], index: number): number {
  let depth = 0;
  for (let i = index; i < masked.length && i < index + 40; i++) {
    for (const c of masked[i] as string) {
      if ("([{".includes(c)) depth += 1;
      else if (")]}".includes(c)) depth -= 1;
    }
    if (depth <= 0 && /:\s*(?:\S.*)?$/.test(masked[i] as string)) return i;
  }
  return index;
}

/** The docstring right after the header that ends on `headerEnd`. */
function docstringAfter(lines: readonly string[], masked: readonly string[], headerEnd: number): string | undefined {
  let i = headerEnd + 1;
  while (i < masked.length && (masked[i] as string).trim() === "") i += 1;
  const first = (lines[i] ?? "").trim();
  const quote = /^[rbuRBU]?("""|''')/.exec(first)?.[1];
  if (!quote) return undefined;
  const collected: string[] = [];
  for (let j = i; j < lines.length; j++) {
    collected.push(lines[j] as string);
    const joined = collected.join("\n");
    const start = joined.indexOf(quote);
    const end = joined.indexOf(quote, start + 3);
    if (end >= 0) {
      const doc = dedent(joined.slice(start + 3, end))
        .replace(/\n{3,}/g, "\n\n")
        .trim();
      return doc.length > 0 ? doc : undefined;
    }
  }
  return undefined;
}

function dedent(text: string): string {
  const lines = text.split("\n");
  const indents = lines
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map(indentationOf);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return [lines[0] ?? "", ...lines.slice(1).map((l) => l.slice(cut))].join("\n");
}
