import { z } from "zod";

/**
 * The response-level contract: every tool result renders itself at one of three
 * levels, and minimal ⊆ standard ⊆ full. No tool shapes its output outside this layer.
 */
export const RESPONSE_LEVELS = ["minimal", "standard", "full"] as const;
export type ResponseLevel = (typeof RESPONSE_LEVELS)[number];
export const ResponseLevelSchema = z.enum(RESPONSE_LEVELS);

const RANK: Record<ResponseLevel, number> = { minimal: 0, standard: 1, full: 2 };

/** True when `level` includes everything `atLeast` includes. */
export function levelIncludes(level: ResponseLevel, atLeast: ResponseLevel): boolean {
  return RANK[level] >= RANK[atLeast];
}

/** Every tool's result is a ToolResponse: it holds all attributes and renders a level of them. */
export abstract class ToolResponse {
  abstract toResponse(level: ResponseLevel): Record<string, unknown>;
}

export interface LevelParts<M extends Record<string, unknown>, S extends Record<string, unknown>, F extends Record<string, unknown>> {
  minimal: M;
  standard?: S;
  full?: F;
}

type Fields = Record<string, unknown>;

function isPlainObject(value: unknown): value is Fields {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * What `extra` has and `base` lacks, added at any depth: objects by key, arrays element by element
 * when their lengths agree. A value `base` already holds is never changed, so the result contains
 * `base` (isNestedSubset) whatever `extra` is.
 */
function addMissing(base: unknown, extra: unknown): unknown {
  if (isPlainObject(base) && isPlainObject(extra)) {
    const out: Fields = { ...base };
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

/**
 * The one level builder: `minimal`, plus what `standard` adds at standard and full, plus what
 * `full` adds at full. A later part only ever adds keys, at any depth (objects by key, arrays
 * element by element), so minimal ⊆ standard ⊆ full holds by construction. Lists whose items
 * differ by level are rendered item by item with `eachAtLevel`, so their length never depends on
 * the level.
 */
export function atLevel<
  M extends Record<string, unknown>,
  S extends Record<string, unknown> = Record<never, never>,
  F extends Record<string, unknown> = Record<never, never>,
>(level: ResponseLevel, parts: LevelParts<M, S, F>): M & Partial<S> & Partial<F> {
  let out: unknown = { ...parts.minimal };
  if (levelIncludes(level, "standard") && parts.standard) out = addMissing(out, parts.standard);
  if (levelIncludes(level, "full") && parts.full) out = addMissing(out, parts.full);
  return out as M & Partial<S> & Partial<F>;
}

/** Each item of a list rendered at `level` from its parts: as many items at every level. */
export function eachAtLevel<T>(
  level: ResponseLevel,
  items: readonly T[],
  parts: (item: T, index: number) => LevelParts<Fields, Fields, Fields>,
): Fields[] {
  return items.map((item, index) => atLevel(level, parts(item, index)));
}

/**
 * A ToolResponse made of level parts, or of a function from the level to parts (for results with
 * lists rendered item by item). What every tool returns, unless it needs more around the parts.
 */
export class LeveledResponse<
  M extends Record<string, unknown> = Fields,
  S extends Record<string, unknown> = Record<never, never>,
  F extends Record<string, unknown> = Record<never, never>,
> extends ToolResponse {
  constructor(private readonly parts: LevelParts<M, S, F> | ((level: ResponseLevel) => LevelParts<M, S, F>)) {
    super();
  }
  toResponse(level: ResponseLevel): Record<string, unknown> {
    return atLevel(level, typeof this.parts === "function" ? this.parts(level) : this.parts);
  }
}

export interface LevelChoice {
  /** The call's `response_level` argument. */
  requested?: ResponseLevel | undefined;
  /**
   * The level another argument of the call asks for (local_git's `options.format: "detailed"`
   * asks for full): used when the call gives no `response_level`.
   */
  implied?: ResponseLevel | undefined;
  /** The tool's own setting. */
  toolDefault?: ResponseLevel | undefined;
  /** The server default (`LOCAL_MCP_RESPONSE_LEVEL`). */
  serverDefault?: ResponseLevel | undefined;
}

/**
 * The level a call renders at, resolved once per call (createServer): the call's argument, else
 * what its other arguments imply, else the tool's setting, else the server default, else "minimal".
 */
export function resolveResponseLevel(choice: LevelChoice): ResponseLevel {
  return choice.requested ?? choice.implied ?? choice.toolDefault ?? choice.serverDefault ?? "minimal";
}

/**
 * True when every value in `inner` appears at the same path in `outer` (objects by key, arrays
 * element by element with equal length). Used to check minimal ⊆ standard ⊆ full.
 */
export function isNestedSubset(inner: unknown, outer: unknown): boolean {
  if (Array.isArray(inner)) {
    return Array.isArray(outer) && inner.length === outer.length && inner.every((item, i) => isNestedSubset(item, outer[i]));
  }
  if (inner !== null && typeof inner === "object") {
    if (outer === null || typeof outer !== "object" || Array.isArray(outer)) return false;
    const o = outer as Record<string, unknown>;
    return Object.entries(inner as Record<string, unknown>).every(([key, value]) => key in o && isNestedSubset(value, o[key]));
  }
  return Object.is(inner, outer);
}
