import { z } from "zod";

/**
 * The response-level contract (seed 001): every tool result renders itself at one of three
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

export interface LevelParts<
  M extends Record<string, unknown>,
  S extends Record<string, unknown>,
  F extends Record<string, unknown>,
> {
  minimal: M;
  standard?: S;
  full?: F;
}

/**
 * Merges cumulative parts: `minimal`, plus `standard` at standard and full, plus `full` at full.
 * Parts add keys; a later part never changes a key of an earlier one, so the levels nest.
 */
export function atLevel<
  M extends Record<string, unknown>,
  S extends Record<string, unknown> = Record<never, never>,
  F extends Record<string, unknown> = Record<never, never>,
>(level: ResponseLevel, parts: LevelParts<M, S, F>): M & Partial<S> & Partial<F> {
  const out: Record<string, unknown> = { ...parts.minimal };
  const add = (part: Record<string, unknown> | undefined) => {
    for (const [key, value] of Object.entries(part ?? {})) {
      if (value !== undefined && !(key in out)) out[key] = value;
    }
  };
  if (levelIncludes(level, "standard")) add(parts.standard);
  if (levelIncludes(level, "full")) add(parts.full);
  return out as M & Partial<S> & Partial<F>;
}

/** A ToolResponse made of level parts; enough for most tools. */
export class LeveledResponse<
  M extends Record<string, unknown>,
  S extends Record<string, unknown> = Record<never, never>,
  F extends Record<string, unknown> = Record<never, never>,
> extends ToolResponse {
  constructor(private readonly parts: LevelParts<M, S, F>) {
    super();
  }
  toResponse(level: ResponseLevel): Record<string, unknown> {
    return atLevel(level, this.parts);
  }
}

export interface LevelChoice {
  /** The call's `response_level` argument. */
  requested?: ResponseLevel | undefined;
  /** The tool's own setting. */
  toolDefault?: ResponseLevel | undefined;
  /** The server default (`LOCAL_MCP_RESPONSE_LEVEL`). */
  serverDefault?: ResponseLevel | undefined;
}

/** The call's argument, else the per-tool setting, else the server default, else "minimal". */
export function resolveResponseLevel(choice: LevelChoice): ResponseLevel {
  return choice.requested ?? choice.toolDefault ?? choice.serverDefault ?? "minimal";
}

/** The one place where a tool's result becomes its output (seed 001 `process_tool_response`). */
export function processToolResponse(
  response: ToolResponse,
  choice: LevelChoice,
): { level: ResponseLevel; body: Record<string, unknown> } {
  const level = resolveResponseLevel(choice);
  return { level, body: response.toResponse(level) };
}

/**
 * True when every value in `inner` appears at the same path in `outer` (objects by key, arrays
 * element by element with equal length). Used to check minimal ⊆ standard ⊆ full.
 */
export function isNestedSubset(inner: unknown, outer: unknown): boolean {
  if (Array.isArray(inner)) {
    return (
      Array.isArray(outer) &&
      inner.length === outer.length &&
      inner.every((item, i) => isNestedSubset(item, outer[i]))
    );
  }
  if (inner !== null && typeof inner === "object") {
    if (outer === null || typeof outer !== "object" || Array.isArray(outer)) return false;
    const o = outer as Record<string, unknown>;
    return Object.entries(inner as Record<string, unknown>).every(
      ([key, value]) => key in o && isNestedSubset(value, o[key]),
    );
  }
  return Object.is(inner, outer);
}
