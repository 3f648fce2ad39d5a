/**
 * Everything `local_analyze` reports about one TS/JS file, from one parse: exports, imports,
 * functions, type declarations, and the modules it depends on — relative imports resolved to
 * files under the roots, bare ones named as packages.
 */
import type { PathGuard, TextFile } from "../paths/path-guard.js";
import { collectExports, type ExportInfo } from "../ts/exports.js";
import { collectFunctions, type FunctionInfo } from "../ts/functions.js";
import { collectImports, moduleReferences, type ImportInfo } from "../ts/imports.js";
import { resolveImport } from "../ts/module-resolution.js";
import { parseSource } from "../ts/source-file.js";
import { collectTypeDeclarations, type TypeDeclarationInfo } from "../ts/type-declarations.js";

export interface Dependencies {
  /** Files under the roots this file imports (absolute real paths). */
  internal: string[];
  /** Packages (`zod`, `@scope/pkg`, `node:fs`). */
  external: string[];
  /** Relative specifiers that lead to no file. */
  unresolved: string[];
  /** Relative specifiers that lead outside the roots (not followed). */
  outside: string[];
}

export interface ScriptAnalysis {
  exports: ExportInfo[];
  imports: ImportInfo[];
  functions: FunctionInfo[];
  types: TypeDeclarationInfo[];
  dependencies: Dependencies;
}

export async function analyzeScript(file: TextFile, guard: PathGuard): Promise<ScriptAnalysis> {
  const parsed = await parseSource(file.absolute, file.text);
  const imports = collectImports(parsed);
  const dependencies: Dependencies = { internal: [], external: [], unresolved: [], outside: [] };
  for (const { from } of moduleReferences(parsed, imports)) {
    const target = await resolveImport(file.absolute, from, guard);
    const add = (list: string[], value: string) => {
      if (!list.includes(value)) list.push(value);
    };
    if (target.kind === "internal") add(dependencies.internal, target.absolute);
    else if (target.kind === "external") add(dependencies.external, target.name);
    else if (target.kind === "outside") add(dependencies.outside, from);
    else add(dependencies.unresolved, from);
  }
  return {
    exports: collectExports(parsed),
    imports,
    functions: collectFunctions(parsed),
    types: collectTypeDeclarations(parsed),
    dependencies,
  };
}

export interface AnalyzedFile {
  file: TextFile;
  /** Import hops from the files the caller named (0 for those). */
  depth: number;
  analysis: ScriptAnalysis;
}

/**
 * The named files and, breadth-first, the files they import under the roots, up to `depth`
 * levels of the import graph (depth 1: the named files only; 2: also what they import; …).
 */
export async function analyzeWithDependencies(
  start: readonly TextFile[],
  depth: number,
  guard: PathGuard,
  signal: AbortSignal,
): Promise<AnalyzedFile[]> {
  const out: AnalyzedFile[] = [];
  const seen = new Set(start.map((f) => f.absolute));
  let frontier: TextFile[] = [...start];
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: TextFile[] = [];
    for (const file of frontier) {
      if (signal.aborted) throw signal.reason;
      const analysis = await analyzeScript(file, guard);
      out.push({ file, depth: level, analysis });
      if (level + 1 >= depth) continue;
      for (const dependency of analysis.dependencies.internal) {
        if (seen.has(dependency)) continue;
        seen.add(dependency);
        next.push(await guard.readText(dependency));
      }
    }
    frontier = next;
  }
  return out;
}
