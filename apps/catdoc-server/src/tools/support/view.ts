/**
 * Rendering at response levels. A tool's result is a LeveledView: a function from the level to
 * cumulative parts (minimal, then what standard adds, then what full adds), merged by core's
 * `atLevel`. Lists inside a result render each item with `atLevel` too, and their length never
 * depends on the level, so minimal ⊆ standard ⊆ full holds by construction, items included.
 */
import { ToolResponse, atLevel } from "@local-mcp/core";
import type { ResponseLevel } from "@local-mcp/core";

type Fields = Record<string, unknown>;

export interface Parts {
  minimal: Fields;
  standard?: Fields;
  full?: Fields;
}

export class LeveledView extends ToolResponse {
  constructor(private readonly build: (level: ResponseLevel) => Parts) {
    super();
  }

  toResponse(level: ResponseLevel): Fields {
    return atLevel(level, this.build(level));
  }
}

/** Each item rendered at `level` from its parts. */
export function itemsAt<T>(level: ResponseLevel, items: readonly T[], parts: (item: T) => Parts): Fields[] {
  return items.map((item) => atLevel(level, parts(item)));
}

/** One object rendered at `level` from its parts. */
export function itemAt(level: ResponseLevel, parts: Parts): Fields {
  return atLevel(level, parts);
}
