/** The run's figures as text: one table row per server and era, then the codes seen and the failures. */
import { FAILURE_KINDS } from "./checks.js";
import type { ServerSummary } from "./fuzz-server.js";
import { describeValue } from "./wire-value.js";

const COLUMNS = [
  "server",
  "era",
  "calls",
  "crashes",
  "non-JSON",
  "uncoded",
  "overruns",
  "other",
  "ok",
  "tool err",
  "proto err",
  "INTERNAL",
  "max ms",
  "p50 ms",
  "p99 ms",
  "after",
] as const;

function row(summary: ServerSummary): string[] {
  const f = summary.tally.failures;
  const other = f.stack_trace + f.output_schema + f.oversized_response + f.root_escape + f.internal_error;
  return [
    summary.server,
    summary.era,
    String(summary.tally.calls),
    String(f.crash),
    String(summary.nonJsonLines),
    String(f.uncoded_error),
    String(f.deadline_overrun),
    String(other),
    String(summary.tally.ok),
    String(summary.tally.toolErrors),
    String(summary.tally.protocolErrors),
    String(summary.internal.length),
    summary.maxLatencyMs.toFixed(0),
    summary.p50Ms.toFixed(1),
    summary.p99Ms.toFixed(1),
    summary.answeredAfter ? "yes" : "NO",
  ];
}

export function formatTable(summaries: readonly ServerSummary[]): string {
  const rows = [[...COLUMNS], ...summaries.map(row)];
  const widths = COLUMNS.map((_c, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")).join("\n");
}

export function formatDetails(summary: ServerSummary, maxFailures = 10): string {
  const t = summary.tally;
  const codes = Object.entries(t.codes)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${n}`)
    .join(", ");
  const modes = Object.entries(t.modes)
    .map(([mode, n]) => `${mode} ${n}`)
    .join(", ");
  const kinds = FAILURE_KINDS.filter((k) => t.failures[k] > 0)
    .map((k) => `${k} ${t.failures[k]}`)
    .join(", ");
  const perTool = Object.entries(t.tools)
    .map(([tool, n]) => `${tool} ${n.ok}/${n.calls}`)
    .join(", ");
  const lines = [
    `${summary.server} (${summary.era} era): ${summary.tools} tools, seed ${summary.seed}, ${(summary.durationMs / 1000).toFixed(1)} s, restarts ${summary.restarts}`,
    `  calls by mode: ${modes}`,
    `  ok/calls by tool: ${perTool}`,
    `  error codes: ${codes || "none"}`,
    `  after the run: ${summary.afterDetail}`,
  ];
  if (kinds) lines.push(`  failures: ${kinds}`);
  for (const failed of summary.failed.slice(0, maxFailures)) {
    lines.push(`  - ${failed.tool} #${failed.index} (${failed.mode}) ${failed.failures.map((f) => `${f.kind}: ${f.detail}`).join("; ")}`);
    lines.push(`      arguments: ${describeValue(failed.arguments, 240)}`);
  }
  if (summary.failed.length > maxFailures) lines.push(`  … and ${summary.failed.length - maxFailures} more`);
  if (summary.internal.length > 0) lines.push(`  INTERNAL answers (coded, but each reports a server bug): ${summary.internal.length}`);
  for (const { fuzzCase, message } of summary.internal.slice(0, maxFailures)) {
    lines.push(`  - ${fuzzCase.tool} #${fuzzCase.index} (${fuzzCase.mode}) INTERNAL: ${message.slice(0, 200)}`);
    lines.push(`      arguments: ${describeValue(fuzzCase.arguments, 240)}`);
  }
  return lines.join("\n");
}
