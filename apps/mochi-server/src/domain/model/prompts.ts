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
  prefixChars = PREFIX_CHARS,
  suffixChars = SUFFIX_CHARS,
}: CompletionPromptParts): PromptInput {
  return { kind: "infill", prefix: renderContext(context) + prefixWindow(prefix, prefixChars), suffix: suffix.slice(0, suffixChars) };
}

/**
 * The repository snippets as text ahead of the prefix. Their rendering (comment lines naming each
 * path) is issue 18's repository-context work; until it lands here, snippets add nothing.
 */
function renderContext(_context: readonly ContextSnippet[]): string {
  return "";
}

export interface DomainPromptParts {
  /** The question or task. */
  instruction: string;
  /** The caller's context, e.g. code. */
  input?: string;
  /** Briefs of the catalog entries retrieved for the question, best first. */
  grounding?: readonly string[];
  /** Repository snippets (not rendered yet, as in completionPrompt). */
  context?: readonly ContextSnippet[];
}

/** The Alpaca prompt of a question: the instruction, and as its Input the caller's input then the catalog entries. */
export function domainPrompt({ instruction, input = "", grounding = [] }: DomainPromptParts): PromptInput & { kind: "alpaca" } {
  const parts: string[] = [];
  if (input.trim() !== "") parts.push(input.trim());
  if (grounding.length > 0) {
    parts.push(["Relevant entries of this codebase's catalog:", ...grounding.map((brief, i) => `[${i + 1}] ${brief}`)].join("\n\n"));
  }
  const block = parts.join("\n\n");
  return { kind: "alpaca", instruction, ...(block === "" ? {} : { input: block }) };
}
