import { cutAtBoundary, type Boundary, type BoundaryContext } from "./completion-boundary.js";

/** How much code a completion covers: the rest of the cursor's line, or the statement or block. */
export type CompletionScope = "line" | "block";

/** The most tokens a completion of each scope generates unless the call says otherwise. */
export const DEFAULT_MAX_TOKENS: Readonly<Record<CompletionScope, number>> = { line: 48, block: 128 };

/** What generation is told so that it ends at the scope's boundary instead of running past it. */
export interface ScopeStops {
  /** Stop strings: generation stops before them. */
  stop: string[];
  /** Token-level stop condition on the text so far (block: a boundary is found). */
  stopWhen?: (text: string) => boolean;
}

/**
 * The stop conditions of a scope. `line` stops at the first newline (the text before it is the
 * line); `block` stops after the token at which cutAtBoundary (completion-boundary.ts) finds a
 * boundary in the text so far — a line end, a closing bracket, a blank line or a dedent — and at
 * three newlines in a row at the latest.
 */
export function scopeStops(scope: CompletionScope, context: BoundaryContext): ScopeStops {
  if (scope === "line") return { stop: ["\n"] };
  return { stop: ["\n\n\n"], stopWhen: (text) => cutAtBoundary(text, context).reason !== "none" };
}

/**
 * The completion of a scope from the generated text. A line is the text before the newline, with
 * no trailing whitespace ("line-end" when generation stopped there); a block is cut at its
 * boundary.
 */
export function completionOf(scope: CompletionScope, generated: string, stoppedAtStop: boolean, context: BoundaryContext): Boundary {
  if (scope === "line") return { text: generated.trimEnd(), reason: stoppedAtStop ? "line-end" : "none" };
  return cutAtBoundary(generated, context);
}

/** Prefix windows start on a multiple of this many characters (a quarter of the window at most). */
const WINDOW_STEP = 1_024;

/**
 * The last at most `chars` characters of the prefix, starting on a multiple of a fixed step of the
 * prefix's length: while the user types, the window's start stays put (it moves one step at a
 * time), so consecutive prompts share their beginning and the engine reuses its cache of it. A
 * plain `prefix.slice(-chars)` would move the start with every keystroke once the prefix is
 * longer than the window.
 */
export function prefixWindow(prefix: string, chars: number): string {
  if (prefix.length <= chars) return prefix;
  const step = Math.max(1, Math.min(WINDOW_STEP, Math.floor(chars / 4)));
  const start = Math.ceil((prefix.length - chars) / step) * step;
  return prefix.slice(start);
}
