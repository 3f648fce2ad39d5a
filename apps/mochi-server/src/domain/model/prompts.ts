import type { GenerateRequest } from "@local-mcp/core/inference";
import { prefixWindow } from "./completion-scope.js";

/** What the engine is prompted with (core's PromptInput). */
export type PromptInput = GenerateRequest["prompt"];

/**
 * The one definition of what mochi's model is prompted with. complete_code and domain_query send
 * these prompts, and the training samples `mochi train` writes are these prompts followed by the
 * expected text, so the adapter learns on exactly what it is served. The engine turns a
 * PromptInput into token ids (LlamaEngine.preparePrompt in packages/core/src/inference/llama-engine.ts):
 * an infill prompt becomes fill-in-the-middle tokens when the model has them, the prefix alone
 * otherwise.
 */

/** Characters of code before the cursor a completion prompt keeps at most (prefixWindow). */
export const PREFIX_CHARS = 6_000;
/** Characters of code after the cursor a completion prompt keeps at most. */
export const SUFFIX_CHARS = 2_000;
/**
 * The answer domain_query leaves room for by default (max_tokens): a question's prompt is fitted
 * to the model's context less this, by domain_query and by mochi train alike.
 */
export const DOMAIN_ANSWER_TOKENS = 512;

/** A piece of the repository put ahead of the code: the file it comes from and why it was chosen. */
export interface ContextSnippet {
  path: string;
  text: string;
  reason: string;
}

export interface CompletionPromptParts {
  /** Code before the cursor (windowed to `prefixChars`). */
  prefix: string;
  /** Code after the cursor (the first `suffixChars`). */
  suffix: string;
  /** Repository snippets rendered ahead of the prefix. */
  context?: readonly ContextSnippet[];
  /** The cursor file's language (`python`, `typescript`…): the comment syntax the snippets are written in. */
  language?: string | undefined;
  /** Defaults to PREFIX_CHARS; complete_code halves it when the prompt does not fit the context. */
  prefixChars?: number;
  /** Defaults to SUFFIX_CHARS. */
  suffixChars?: number;
}

/** The infill prompt of a completion at a cursor. */
export function completionPrompt({
  prefix,
  suffix,
  context = [],
  language,
  prefixChars = PREFIX_CHARS,
  suffixChars = SUFFIX_CHARS,
}: CompletionPromptParts): PromptInput {
  return {
    kind: "infill",
    prefix: renderContext(context, language) + prefixWindow(prefix, prefixChars),
    suffix: suffix.slice(0, suffixChars),
  };
}

/**
 * The repository snippets as comment lines ahead of the code, as Tabby and Continue put retrieved
 * snippets: each snippet a `Path:` line naming its file (none for the catalog's conventions line)
 * and its text, every line behind the comment marker of `language` (else of the first snippet's
 * file; `//` by default), so no line of an indexed file can end the comment. Empty when there is
 * no snippet.
 */
export function renderContext(context: readonly ContextSnippet[], language?: string): string {
  if (context.length === 0) return "";
  const marker = commentMarker(
    language ??
      context
        .find((c) => c.path !== "")
        ?.path.split(".")
        .pop(),
  );
  const lines: string[] = [];
  for (const snippet of context) {
    if (snippet.path !== "") lines.push(`${marker} Path: ${snippet.path}`);
    for (const line of snippet.text.split(/\r\n|[\r\n\u2028\u2029]/)) lines.push(line === "" ? marker : `${marker} ${line}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Languages (and file extensions) whose line comments start with `#`; the others here use `//`. */
const HASH_COMMENTS = new Set(["python", "py", "pyi", "ruby", "rb", "shell", "sh", "bash", "yaml", "yml", "toml", "r", "perl", "pl"]);

function commentMarker(languageOrExtension: string | undefined): string {
  return languageOrExtension !== undefined && HASH_COMMENTS.has(languageOrExtension.toLowerCase()) ? "#" : "//";
}

export interface DomainPromptParts {
  /** The question or task. */
  instruction: string;
  /** The caller's context, e.g. code. */
  input?: string;
  /** Briefs of the catalog entries retrieved for the question, best first. */
  grounding?: readonly string[];
  /** Repository snippets (definitions the question and input name), rendered as in completionPrompt after the input. */
  context?: readonly ContextSnippet[];
}

/**
 * The Alpaca prompt of a question: the instruction, and as its Input the caller's input, the
 * definitions it names from the repository, then the catalog entries.
 */
export function domainPrompt({
  instruction,
  input = "",
  grounding = [],
  context = [],
}: DomainPromptParts): PromptInput & { kind: "alpaca" } {
  const parts: string[] = [];
  if (input.trim() !== "") parts.push(input.trim());
  if (context.length > 0) parts.push(`Definitions from this codebase's files:\n${renderContext(context).trimEnd()}`);
  if (grounding.length > 0) {
    parts.push(["Relevant entries of this codebase's catalog:", ...grounding.map((brief, i) => `[${i + 1}] ${brief}`)].join("\n\n"));
  }
  const block = parts.join("\n\n");
  return { kind: "alpaca", instruction, ...(block === "" ? {} : { input: block }) };
}
