import { isNestedSubset } from "../response-level.js";

/** Throws unless minimal ⊆ standard ⊆ full (every value at the same path in the next level). */
export function assertLevelsNested(levels: { minimal: unknown; standard: unknown; full: unknown }): void {
  if (!isNestedSubset(levels.minimal, levels.standard)) {
    throw new Error(`minimal is not contained in standard:\n${JSON.stringify(levels, null, 2)}`);
  }
  if (!isNestedSubset(levels.standard, levels.full)) {
    throw new Error(`standard is not contained in full:\n${JSON.stringify(levels, null, 2)}`);
  }
}

/** The most the minimal answer may cost, as a share of the full answer's tokens. */
export const MINIMAL_SHARE = 0.25;
/** A minimal answer of at most this many tokens is small enough whatever the full one costs. */
export const MINIMAL_FLOOR_TOKENS = 120;

/** o200k tokens (gpt-tokenizer, the stand-in for Claude's tokenizer) of a value's JSON text. */
export async function jsonTokens(value: unknown): Promise<number> {
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  return countTokens(JSON.stringify(value) ?? "");
}

export interface MinimalShare {
  tool: string;
  minimal: number;
  full: number;
  ratio: number;
}

/**
 * Throws unless the minimal answer costs at most 25 % of the full one's tokens, or at most 120
 * tokens itself: minimal is what a model needs to decide its next step, the rest is for the levels
 * above. Returns the figures, for a test to report.
 */
export async function assertMinimalShare(tool: string, levels: { minimal: unknown; full: unknown }): Promise<MinimalShare> {
  const minimal = await jsonTokens(levels.minimal);
  const full = await jsonTokens(levels.full);
  const ratio = Math.round((minimal / full) * 100) / 100;
  if (minimal > MINIMAL_FLOOR_TOKENS && minimal > full * MINIMAL_SHARE) {
    throw new Error(
      `${tool}: minimal is ${minimal} tokens, ${ratio} of full's ${full} (at most ${MINIMAL_SHARE} once over ${MINIMAL_FLOOR_TOKENS} tokens)`,
    );
  }
  return { tool, minimal, full, ratio };
}
