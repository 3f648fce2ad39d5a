/**
 * Bounded lists: every list a tool returns is cut to a `limit` (with a default and a maximum)
 * from an `offset`, and says how many there are in all, whether it was cut, where the next page
 * starts, and in a short notice what to do for more. No answer can flood a client's context.
 */
import { lazySchema } from "@local-mcp/core";
import { z } from "zod";

export interface PageBounds {
  defaultLimit: number;
  maxLimit: number;
}

/** Input fields `limit` and `offset` for a list of `what`. */
export function pagingInput(what: string, bounds: PageBounds) {
  return {
    limit: z.number().int().min(1).max(bounds.maxLimit).optional().describe(`default ${bounds.defaultLimit}`),
    offset: z.number().int().min(0).optional().describe("the last answer's nextOffset"),
  };
}

/** Input field `limit` alone (lists shown in a detail view, without paging). */
export function limitInput(what: string, bounds: PageBounds) {
  return pagingInput(what, bounds).limit;
}

/** Output fields describing a page (in every level). */
export const PageOutput = lazySchema(() => ({
  total: z.number().int().describe("How many there are in all."),
  offset: z.number().int(),
  returned: z.number().int(),
  truncated: z.boolean().describe("True when more exist than were returned."),
  nextOffset: z.number().int().optional(),
  notice: z.string().optional(),
}));

export interface PageInfo {
  total: number;
  offset: number;
  returned: number;
  truncated: boolean;
  nextOffset?: number;
  notice?: string;
}

export interface Page<T> {
  items: T[];
  info: PageInfo;
}

/**
 * Cuts `items` to one page. `more` says how to get the rest (default: call again with offset).
 */
export function paginate<T>(
  items: readonly T[],
  request: { limit?: number | undefined; offset?: number | undefined },
  bounds: PageBounds,
  what: string,
): Page<T> {
  const limit = request.limit ?? bounds.defaultLimit;
  const offset = request.offset ?? 0;
  const slice = items.slice(offset, offset + limit);
  const end = offset + slice.length;
  const truncated = end < items.length;
  const info: PageInfo = { total: items.length, offset, returned: slice.length, truncated };
  if (truncated) {
    info.nextOffset = end;
    info.notice = `Showing ${what} ${offset + 1}-${end} of ${items.length}; call again with offset ${end} for more, or narrow the request.`;
  }
  return { items: slice, info };
}

/** The first `limit` of `items` and how many there are (detail views without offsets). */
export function firstOf<T>(items: readonly T[], limit: number): { items: T[]; total: number; truncated: boolean } {
  return { items: items.slice(0, limit), total: items.length, truncated: items.length > limit };
}
