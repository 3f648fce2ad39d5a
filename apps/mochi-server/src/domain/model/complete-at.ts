import { isToolError } from "@local-mcp/core";
import type { GenerateRequest, GenerationResult } from "@local-mcp/core/inference";
import type { Boundary } from "./completion-boundary.js";
import { completionOf, DEFAULT_MAX_TOKENS, scopeStops, type CompletionScope } from "./completion-scope.js";
import { completionPrompt, PREFIX_CHARS, SUFFIX_CHARS, type ContextSnippet } from "./prompts.js";

/** What generates a completion: the served model (complete_code) or an engine (mochi eval). */
export interface CompletionModel {
  generate(request: GenerateRequest): Promise<GenerationResult>;
}

/** How much of the code around the cursor a prompt holds. */
export interface PromptWindow {
  prefixChars: number;
  suffixChars: number;
}

export interface CompleteAtRequest {
  prefix: string;
  suffix: string;
  language?: string | undefined;
  scope: CompletionScope;
  /** Repository snippets the prompt puts ahead of the prefix (prompts.ts renders them). */
  context?: readonly ContextSnippet[] | undefined;
  /** Default: DEFAULT_MAX_TOKENS of the scope. */
  maxTokens?: number | undefined;
  /** 0 (greedy) unless sampling an alternative. */
  temperature?: number | undefined;
  seed?: number | undefined;
  signal?: AbortSignal | undefined;
  /** The time left for this generation, asked before each try (default: the engine's deadline). */
  remainingMs?: (() => number) | undefined;
  /** Where to start (a window an earlier call of the same completion had to shrink to); default the full window. */
  window?: PromptWindow | undefined;
}

export interface CompleteAtResult extends Boundary {
  result: GenerationResult;
  /** The window the prompt was sent with: pass it to the next call for the same cursor. */
  window: PromptWindow;
}

/**
 * One completion at a cursor, as complete_code makes it and mochi eval measures it: the prompt of
 * the code around the cursor (prompts.ts' completionPrompt), generation that stops at the scope's boundary (completion-scope.ts),
 * the completion cut there. A prompt too long for the context is retried with half the window
 * (down to 200 characters of prefix) rather than refused.
 */
export async function completeAt(model: CompletionModel, request: CompleteAtRequest): Promise<CompleteAtResult> {
  const { prefix, suffix, language, scope } = request;
  const context = { prefix, suffix, language };
  const stops = scopeStops(scope, context);
  const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS[scope];
  let window = request.window ?? { prefixChars: PREFIX_CHARS, suffixChars: SUFFIX_CHARS };
  for (;;) {
    try {
      const result = await model.generate({
        prompt: completionPrompt({
          prefix,
          suffix,
          language,
          ...(request.context === undefined ? {} : { context: request.context }),
          ...window,
        }),
        maxTokens,
        temperature: request.temperature ?? 0,
        ...(request.seed === undefined ? {} : { seed: request.seed }),
        ...stops,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
        ...(request.remainingMs === undefined ? {} : { deadlineMs: request.remainingMs() }),
      });
      const cut = completionOf(scope, result.text, result.stopReason === "stop", context);
      return { ...cut, result, window };
    } catch (error) {
      // Too long for the context: keep less of the code around the cursor.
      if (isToolError(error) && error.code === "INVALID_INPUT" && /does not fit/.test(error.message) && window.prefixChars > 200) {
        window = { prefixChars: Math.floor(window.prefixChars / 2), suffixChars: Math.floor(window.suffixChars / 2) };
        continue;
      }
      throw error;
    }
  }
}
