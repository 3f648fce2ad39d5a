import { catdocTarget } from "./catdoc.js";
import { localModelTarget } from "./local-model.js";
import { mochiTarget } from "./mochi.js";
import { soloTarget } from "./solo.js";
import type { FuzzTarget } from "./target.js";

export type { FuzzTarget, PreparedTarget } from "./target.js";

/** Every stdio server of the workspace, in the order a run visits them. */
export const TARGETS: readonly FuzzTarget[] = [catdocTarget, localModelTarget, mochiTarget, soloTarget];

/** Whether INTERNAL answers fail `target`'s run: FUZZ_STRICT when set (0 or 1), else the target's default. */
export function failsOnInternal(target: FuzzTarget, setting: boolean | undefined): boolean {
  return setting ?? target.strict;
}

/** Targets named in a filter (bin or short names, comma-separated); all when empty. */
export function selectTargets(filter: readonly string[]): FuzzTarget[] {
  if (filter.length === 0) return [...TARGETS];
  const unknown = filter.filter((name) => !TARGETS.some((t) => t.name === name || t.short === name));
  if (unknown.length > 0) throw new Error(`Unknown server(s): ${unknown.join(", ")}. Known: ${TARGETS.map((t) => t.short).join(", ")}`);
  return TARGETS.filter((t) => filter.includes(t.name) || filter.includes(t.short));
}
