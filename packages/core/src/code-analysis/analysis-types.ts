/** What analyzeSource answers about one file (docs/local-model.md, "What the answers mean"). */
import type { CodeLanguage } from "./languages.js";

export interface FunctionFacts {
  name: string;
  /** The class, type, impl or trait a method belongs to (`Outer.Inner` when nested); absent for a function. */
  container?: string;
  /** Parameter names as written, with a rest mark (`*args`, `**kwargs`, `...rest`); no types, no defaults. */
  params: string[];
  async: boolean;
  /** Whether other modules see it by this file's exports (a method never is). */
  exported: boolean;
  /** 1-based line of the declaration (of its first decorator or attribute, none counted). */
  line: number;
}

export interface TypeFacts {
  name: string;
  /** `class`, `interface`, `type`, `enum`, `struct`, `trait`, `record`, … as the language names it. */
  kind: string;
  container?: string;
  exported: boolean;
  line: number;
}

export interface SourceAnalysis {
  language: CodeLanguage;
  /** The names the file makes visible to other modules at top level, each once, in source order. */
  exports: string[];
  /** The modules the file imports, each once, in source order. */
  imports: string[];
  functions: FunctionFacts[];
  types: TypeFacts[];
  /** Every module the file needs: its imports, then (JS/TS) the modules it re-exports from. */
  dependencies: string[];
  /** 1-based lines where the parser met a syntax error (at most 20); the answers come from the rest. */
  syntaxErrors: number[];
}

/** What a language's reader gives; analyzeSource adds the language and the syntax errors. */
export type LanguageFacts = Omit<SourceAnalysis, "language" | "syntaxErrors">;
