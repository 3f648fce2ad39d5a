/**
 * Data that renders at three levels by construction: `standard` and `full` parts only ever add
 * keys, at any depth (objects by key, arrays element by element), so minimal ⊆ standard ⊆ full.
 */
import { levelIncludes, type ResponseLevel } from "@local-mcp/core";

export type Json = Record<string, unknown>;

export interface LevelTree {
  minimal: Json;
  standard?: Json;
  full?: Json;
}

function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Adds what `extra` has and `base` lacks, recursing into objects and equal-length arrays. */
function addMissing(base: unknown, extra: unknown): unknown {
  if (isPlainObject(base) && isPlainObject(extra)) {
    const out: Json = { ...base };
    for (const [key, value] of Object.entries(extra)) {
      if (value === undefined) continue;
      out[key] = key in base ? addMissing(base[key], value) : value;
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(extra) && base.length === extra.length) {
    return base.map((item, i) => addMissing(item, extra[i]));
  }
  return base;
}

export function renderTree(tree: LevelTree, level: ResponseLevel): Json {
  let out: unknown = tree.minimal;
  if (levelIncludes(level, "standard") && tree.standard) out = addMissing(out, tree.standard);
  if (levelIncludes(level, "full") && tree.full) out = addMissing(out, tree.full);
  return out as Json;
}
