/**
 * The two MCP protocol eras a fuzz run drives a server through (the SDK's protocol-versions guide):
 * `legacy` is the 2025-11-25 `initialize` handshake (the v2 client's default), `modern` is
 * 2026-07-28 (no `initialize`: the client probes with `server/discover` and every request carries
 * the `_meta` envelope), pinned, so a server that does not serve it fails to connect instead of
 * falling back. A run splits its calls between the eras it is given (eraOfCall), so fuzzing both
 * costs no more calls than fuzzing one.
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

/**
 * The era that sends call k of a run over `toolCount` tools. Call k goes to tool k mod n, as its
 * round floor(k / n)'s call; the rounds alternate between the eras. So each era calls every tool,
 * each gets some of the first, valid-looking rounds, and together they send exactly the calls a
 * one-era run of the same size sends.
 */
export function eraOfCall(k: number, toolCount: number, eras: readonly Era[]): Era {
  const era = eras[Math.floor(k / Math.max(1, toolCount)) % eras.length];
  if (!era) throw new Error("a run needs at least one era");
  return era;
}
