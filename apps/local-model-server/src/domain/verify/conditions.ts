/**
 * The exact `local_verify` conditions: `contains` (a substring), `exports` (an exported name,
 * followed through `export * from` re-exports), `imports` (a module specifier or an imported
 * name), `pattern` (a time-bounded regex). Evidence is always `line N: <snippet>`. TS/JS files
 * are read with the TypeScript compiler; Python, Go, Rust, Java and C# with core's tree-sitter
 * layer (code-languages.ts), whose answers say what is exported or imported but not on which
 * line: the evidence there is a declaration's line, else the first line naming it as a word.
 */
import { analyzeCodeFile, analyzerFor, exportLines } from "../analyze/code-languages.js";
import { lineAt, lineStarts, snippet, splitLines } from "../text/lines.js";
import type { TextFile } from "../paths/path-guard.js";
import { compilePatterns, type RegexRunner } from "../regex/bounded-regex.js";
import { collectExports, exportLabel, type ExportInfo } from "../ts/exports.js";
import { collectImports } from "../ts/imports.js";
import { resolveImport } from "../ts/module-resolution.js";
import type { SourceCache } from "./source-cache.js";

export const CONDITION_TYPES = ["contains", "exports", "imports", "pattern"] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

export interface Verdict {
  status: "pass" | "fail";
  evidence: string;
  reason?: string;
  line?: number;
  /** Where the evidence was found when not in the checked file (a re-export). */
  via?: string;
}

export interface ConditionContext {
  cache: SourceCache;
  regex: RegexRunner;
  signal: AbortSignal;
  /** Index of the check, for messages. */
  index: number;
}

const NOT_FOUND = "not found";
const LIST_MAX = 15;

function evidence(file: TextFile, line: number): string {
  return `line ${line}: ${snippet(splitLines(file.text)[line - 1] ?? "")}`;
}

function listed(names: readonly string[]): string {
  const unique = [...new Set(names)];
  return unique.length === 0
    ? "none"
    : unique.length > LIST_MAX
      ? `${unique.slice(0, LIST_MAX).join(", ")}, … (${unique.length} in all)`
      : unique.join(", ");
}

export function missingFile(file: string): Verdict {
  return { status: "fail", evidence: NOT_FOUND, reason: `${file} does not exist` };
}

export async function checkCondition(type: ConditionType, value: string, file: TextFile, context: ConditionContext): Promise<Verdict> {
  switch (type) {
    case "contains": {
      const at = file.text.indexOf(value);
      if (at < 0) return { status: "fail", evidence: NOT_FOUND, reason: `'${value}' does not occur in ${file.given}` };
      const line = lineAt(lineStarts(file.text), at);
      return { status: "pass", evidence: evidence(file, line), line };
    }
    case "exports":
    case "imports":
      if (analyzerFor(file.given) === "tree-sitter") return checkCode(type, value, file, context.signal);
      return type === "exports" ? checkExports(value, file, context) : checkImports(value, file, context);
    case "pattern": {
      const specs = compilePatterns([value], `checks.${context.index}.condition.value`);
      const matches = await context.regex.search(file.text, specs, {
        signal: context.signal,
        file: file.given,
        labels: [value],
        maxMatches: 1,
      });
      const first = matches[0];
      if (!first) return { status: "fail", evidence: NOT_FOUND, reason: `no match for /${value}/ in ${file.given}` };
      return { status: "pass", evidence: evidence(file, first.line), line: first.line };
    }
  }
}

/** The first line holding `word` as a whole word (or, for a module path, as written), 1-based. */
function lineNaming(file: TextFile, word: string): number | undefined {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(^|[^\\w])${escaped}($|[^\\w])`);
  const at = splitLines(file.text).findIndex((line) => pattern.test(line));
  return at < 0 ? undefined : at + 1;
}

/** exports/imports of a file in a tree-sitter language (core's code-analysis layer). */
async function checkCode(type: "exports" | "imports", value: string, file: TextFile, signal: AbortSignal): Promise<Verdict> {
  const analysis = await analyzeCodeFile(file, signal);
  const names = type === "exports" ? analysis.exports : analysis.imports;
  if (!names.includes(value)) {
    return {
      status: "fail",
      evidence: NOT_FOUND,
      reason:
        type === "exports"
          ? `${file.given} does not export '${value}'; it exports: ${listed(analysis.exports)}`
          : `${file.given} does not import '${value}'; it imports: ${listed(analysis.imports)}`,
    };
  }
  const line = (type === "exports" ? exportLines(analysis).get(value) : undefined) ?? lineNaming(file, value);
  return line === undefined ? { status: "pass", evidence: `${type} ${value}` } : { status: "pass", evidence: evidence(file, line), line };
}

async function checkExports(value: string, file: TextFile, context: ConditionContext): Promise<Verdict> {
  const found = await findExport(file, value, context, new Set());
  if (found) {
    return {
      status: "pass",
      evidence: evidence(file, found.line),
      line: found.line,
      ...(found.via ? { via: `${found.via.file.relative} ${evidence(found.via.file, found.via.line)}` } : {}),
    };
  }
  const exports = collectExports(await context.cache.parse(file));
  return {
    status: "fail",
    evidence: NOT_FOUND,
    reason: `${file.given} does not export '${value}'; it exports: ${listed(exports.map(exportLabel))}`,
  };
}

async function checkImports(value: string, file: TextFile, context: ConditionContext): Promise<Verdict> {
  const imports = collectImports(await context.cache.parse(file));
  const hit = imports.find((i) => i.from === value) ?? imports.find((i) => i.names.some((n) => n.imported === value || n.local === value));
  if (hit) return { status: "pass", evidence: evidence(file, hit.line), line: hit.line };
  return {
    status: "fail",
    evidence: NOT_FOUND,
    reason: `${file.given} imports nothing named or from '${value}'; it imports from: ${listed(imports.map((i) => i.from))}`,
  };
}

interface FoundExport {
  line: number;
  via?: { file: TextFile; line: number };
}

/** An exported name, directly or through `export * from "./x"` into files under the roots. */
async function findExport(file: TextFile, name: string, context: ConditionContext, seen: Set<string>): Promise<FoundExport | undefined> {
  if (seen.has(file.absolute) || seen.size > 20) return undefined;
  seen.add(file.absolute);
  const exports: ExportInfo[] = collectExports(await context.cache.parse(file));
  const direct = exports.find((e) => e.name === name);
  if (direct) return { line: direct.line };
  for (const star of exports.filter((e) => e.kind === "re-export-all" && e.from)) {
    const target = await resolveImport(file.absolute, star.from ?? "", context.cache.guard);
    if (target.kind !== "internal") continue;
    const next = await context.cache.file(target.absolute);
    if (!next) continue;
    const inner = await findExport(next, name, context, seen);
    if (inner) return { line: star.line, via: inner.via ?? { file: next, line: inner.line } };
  }
  return undefined;
}
