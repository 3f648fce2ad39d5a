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
  /** 1-based line of the declaration's last character (the end of its body). */
  endLine?: number;
}

export interface TypeFacts {
  name: string;
  /** `class`, `interface`, `type`, `enum`, `struct`, `trait`, `record`, … as the language names it. */
  kind: string;
  container?: string;
  exported: boolean;
  line: number;
  /** 1-based line of the declaration's last character (the end of its body). */
  endLine?: number;
}

/** One import of a module and the names it takes from it (docs/local-model.md, "What the answers mean"). */
export interface ImportFacts {
  /**
   * The module the names come from: Python's module (`a.b`, `.rates`), Go's import path, Rust's path
   * before its last segment (`std::collections`), Java's package or type (`java.util`), C#'s namespace
   * or type, JS/TS's specifier.
   */
  module: string;
  /**
   * The names taken from it, as written: `c`, an alias after the original (`d as e`), `*` for all,
   * Rust's `self`, JS/TS `X` for a default and `* as ns`. Empty when the module itself is imported
   * (Python `import os`, Go, C# `using`, JS/TS `import "m"` and `import()`).
   */
  names: string[];
  /** The name the module itself is bound to: Python `import numpy as np`, Go `f "fmt"` and `_`, C# `using A = B.C;`, Rust `extern crate a as b`. */
  alias?: string;
  /** Java's `import static`, C#'s `using static`. */
  static?: true;
  /** 1-based line of the statement. */
  line: number;
}

export interface SourceAnalysis {
  language: CodeLanguage;
  /** The names the file makes visible to other modules at top level, each once, in source order. */
  exports: string[];
  /** The modules the file imports, each once, in source order. */
  imports: string[];
  /** Every import with the names it takes, in source order, one entry per module a statement names (analyzeSource always gives it). */
  importedNames?: ImportFacts[];
  functions: FunctionFacts[];
  types: TypeFacts[];
  /** Every module the file needs: its imports, then (JS/TS) the modules it re-exports from. */
  dependencies: string[];
  /** 1-based lines where the parser met a syntax error (at most 20); the answers come from the rest. */
  syntaxErrors: number[];
}

/** What a language's reader gives; analyzeSource adds the language and the syntax errors. */
export type LanguageFacts = Omit<SourceAnalysis, "language" | "syntaxErrors">;
