/**
 * One code-analysis layer for every server (issue 20): exports, imports, functions, types and
 * module dependencies of a source file, read from its tree-sitter syntax tree. What each answer
 * means is defined once, in docs/local-model.md ("What the answers mean").
 */
import type { Node } from "web-tree-sitter";
import { ToolError } from "../errors.js";
import type { LanguageFacts, SourceAnalysis } from "./analysis-types.js";
import { languageFacts } from "./language-readers.js";
import { type CodeLanguage, isCodeLanguage, languageOf, unsupportedLanguage } from "./languages.js";
import { parserFor } from "./grammars.js";
import { syntaxErrorLines } from "./syntax.js";

export interface AnalyzeSourceInput {
  /** The file's path or name; its extension picks the language when `language` is not given. */
  path?: string;
  language?: string;
  text: string;
  /** Parsing stops with a TIMEOUT error after this long (default 10 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Text longer than this (in UTF-16 code units, about 16 MB of ASCII) is refused before parsing. */
export const MAX_SOURCE_CHARS = 16 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_ERROR_LINES = 20;

/** The language a call names, or the one its path's extension names; a coded error for anything else. */
export function resolveLanguage(input: { path?: string; language?: string }): CodeLanguage {
  if (input.language !== undefined) {
    const language = input.language.toLowerCase();
    if (isCodeLanguage(language)) return language;
    throw unsupportedLanguage(`'${input.language}'`);
  }
  if (input.path === undefined) throw unsupportedLanguage("a text with neither a language nor a path");
  const language = languageOf(input.path);
  if (!language) throw unsupportedLanguage(`'${input.path}'`);
  return language;
}

export async function analyzeSource(input: AnalyzeSourceInput): Promise<SourceAnalysis> {
  return (await analyzeSourceWith(input, () => undefined)).analysis;
}

/**
 * analyzeSource's answers and, from the same syntax tree, what `read` makes of it: for a server
 * that needs more of a file than the layer answers (mochi's catalog reads declarations, comments,
 * error handling), one parse; `read` gets the answers too. The tree is deleted when `read` returns: keep no node.
 */
export async function analyzeSourceWith<T>(
  input: AnalyzeSourceInput,
  read: (root: Node, analysis: SourceAnalysis) => T,
): Promise<{ analysis: SourceAnalysis; read: T }> {
  const language = resolveLanguage(input);
  if (input.text.length > MAX_SOURCE_CHARS)
    throw new ToolError(
      "RESOURCE_EXHAUSTED",
      `The source has ${input.text.length} characters, above the ${MAX_SOURCE_CHARS} the code analysis reads`,
      {
        suggestion: "Analyze a smaller file, or split the file.",
      },
    );
  input.signal?.throwIfAborted();
  const parser = await parserFor(language);
  const deadline = performance.now() + (input.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const cancelled = () => performance.now() > deadline || input.signal?.aborted === true;
  parser.reset();
  const tree = parser.parse(input.text, null, {
    // The runtime stops parsing when this returns true (its typings say void).
    progressCallback: (() => cancelled()) as () => void,
  });
  if (!tree) {
    parser.reset();
    input.signal?.throwIfAborted();
    throw new ToolError("TIMEOUT", `Parsing the ${language} source did not finish within ${input.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`);
  }
  try {
    let analysis: SourceAnalysis;
    let extra: T;
    try {
      const facts: LanguageFacts = languageFacts(language, tree.rootNode);
      // Source order (readers of nested types visit them breadth-first; the sort is stable).
      facts.functions.sort((a, b) => a.line - b.line);
      facts.types.sort((a, b) => a.line - b.line);
      analysis = { language, ...facts, syntaxErrors: syntaxErrorLines(tree.rootNode, MAX_ERROR_LINES) };
      extra = read(tree.rootNode, analysis);
    } catch (error) {
      // The readers stop at MAX_NESTING; this is the backstop should a shape slip past them.
      if (error instanceof RangeError)
        throw new ToolError("RESOURCE_EXHAUSTED", `The ${language} source is nested too deeply to analyze`, {
          suggestion: "Analyze a file without such deep nesting.",
        });
      throw error;
    }
    return { analysis, read: extra };
  } finally {
    tree.delete();
  }
}
