/** `local-model stats`: the persisted usage statistics as a table. */
import type { StatsView } from "../domain/stats/stats-store.js";

export function formatStats(view: StatsView): string {
  const rows = Object.entries(view.tools).map(([name, t]) => {
    const engines = Object.entries(t.by_engine)
      .map(([engine, e]) => `${engine} ${e?.calls ?? 0}`)
      .join(", ");
    return `${name.padEnd(15)} calls ${String(t.calls).padStart(5)}  errors ${String(t.errors).padStart(4)}  tokens saved ${String(t.tokens_saved).padStart(8)}  over ${String(t.tokens_over).padStart(6)}  used ${String(t.tokens_used).padStart(7)}  p50 ${t.latency_ms.p50} ms  p95 ${t.latency_ms.p95} ms  (${engines || "-"})`;
  });
  return [
    `stats file: ${view.persisted_in}${view.since ? ` (since ${view.since})` : " (no calls recorded yet)"}`,
    ...rows,
    `total: ${view.totals.calls} calls, ${view.totals.errors} errors, ${view.totals.tokens_saved} tokens saved, ` +
      `${view.totals.tokens_over} tokens over (answers that cost more than their input)${view.totals.tokens_over > 0 ? `, net ${view.totals.tokens_saved - view.totals.tokens_over}` : ""}, ${view.totals.tokens_used} model tokens`,
    "",
  ].join("\n");
}
