/**
 * The two MCP protocol eras a fuzz run drives a server through (the SDK's docs/protocol-versions.md):
 * `legacy` is the 2025-11-25 `initialize` handshake (the v2 client's default), `modern` is
 * 2026-07-28 (no `initialize`: the client probes with `server/discover` and every request carries
 * the `_meta` envelope), pinned, so a server that does not serve it fails to connect instead of
 * falling back. A run splits its calls between the eras it is given, so fuzzing both costs no more
 * calls than fuzzing one.
 */
import type { ProtocolEra } from "@modelcontextprotocol/client";

export type Era = ProtocolEra;
export const ERAS: readonly Era[] = ["legacy", "modern"];

/** `legacy`, `modern` or `both` (the default) as the list of eras to run. */
export function parseEras(text: string | undefined, source: string): Era[] {
  const value = text?.trim() ?? "";
  if (value === "" || value === "both") return [...ERAS];
  const era = ERAS.find((e) => e === value);
  if (era) return [era];
  throw new Error(`${source} must be legacy, modern or both (got '${text}')`);
}

export interface EraShare {
  era: Era;
  /** Index of the run's first call in this era: the eras take consecutive ranges of one run's calls. */
  offset: number;
  calls: number;
}

/**
 * Splits `calls` between the eras, in order, the first getting the odd call: call k of the run
 * (the same case a one-era run of `calls` would send as its k-th) goes to exactly one era.
 */
export function splitCalls(calls: number, eras: readonly Era[]): EraShare[] {
  const shares: EraShare[] = [];
  let offset = 0;
  eras.forEach((era, i) => {
    const share = Math.floor(calls / eras.length) + (i < calls % eras.length ? 1 : 0);
    shares.push({ era, offset, calls: share });
    offset += share;
  });
  return shares;
}
