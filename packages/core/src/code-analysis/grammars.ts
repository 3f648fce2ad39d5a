/**
 * The tree-sitter runtime and its grammars, loaded on first need: the runtime's WASM once, each
 * language's grammar the first time that language is asked for, and one parser per language,
 * reused. The .wasm files are resolved from their installed packages (web-tree-sitter's own
 * runtime; @vscode/tree-sitter-wasm's prebuilt grammars, built with the same tree-sitter line), so
 * they are found wherever npm put them.
 */
import { createRequire } from "node:module";
import type * as WebTreeSitter from "web-tree-sitter";
import type { Language as TreeSitterLanguage, Parser as TreeSitterParser } from "web-tree-sitter";
import type { CodeLanguage } from "./languages.js";

const require = createRequire(import.meta.url);

/** The grammar file @vscode/tree-sitter-wasm ships for each language. */
const GRAMMAR_FILES: Readonly<Record<CodeLanguage, string>> = {
  python: "tree-sitter-python.wasm",
  javascript: "tree-sitter-javascript.wasm",
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  go: "tree-sitter-go.wasm",
  rust: "tree-sitter-rust.wasm",
  java: "tree-sitter-java.wasm",
  csharp: "tree-sitter-c-sharp.wasm",
};

type Runtime = typeof WebTreeSitter;

let runtime: Promise<Runtime> | undefined;
const parsers = new Map<CodeLanguage, Promise<TreeSitterParser>>();

function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    const module = await import("web-tree-sitter");
    // The runtime finds its tree-sitter.wasm next to its own module.
    await module.Parser.init();
    return module;
  })();
  runtime.catch(() => {
    runtime = undefined;
  });
  return runtime;
}

/** The one parser of `language`, its grammar loaded on the first call. */
export function parserFor(language: CodeLanguage): Promise<TreeSitterParser> {
  let parser = parsers.get(language);
  if (!parser) {
    parser = (async () => {
      const { Language, Parser } = await loadRuntime();
      const grammar: TreeSitterLanguage = await Language.load(require.resolve(`@vscode/tree-sitter-wasm/wasm/${GRAMMAR_FILES[language]}`));
      const made = new Parser();
      made.setLanguage(grammar);
      return made;
    })();
    parsers.set(language, parser);
    parser.catch(() => parsers.delete(language));
  }
  return parser;
}

/** The languages whose grammar has been loaded in this process (for the lazy-loading test). */
export function loadedGrammars(): CodeLanguage[] {
  return [...parsers.keys()];
}
