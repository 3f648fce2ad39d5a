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
