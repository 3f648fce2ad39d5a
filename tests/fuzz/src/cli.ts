#!/usr/bin/env node
/**
 * `pnpm fuzz [--era legacy|modern|both]`: the full fuzz run. Every selected server gets FUZZ_CALLS
 * calls (10,000 by default) from FUZZ_SEED, split between the protocol eras (both by default: one
 * server process connected with the 2025-11-25 handshake, one pinned to 2026-07-28, taking turns
 * round by round); prints one
 * row per server and era (calls, crashes, non-JSON stdout lines,
 * uncoded errors, deadline overruns, other failures, ok / tool-error / protocol-error counts,
 * latencies, whether it answered afterwards), saves each distinct failure under
 * tests/fuzz/regressions/, and exits 1 on any failure.
 */
import { disposeRuns, fuzzServer, startRuns, summaryFailed, type ServerSummary } from "./fuzz-server.js";
import { harnessOptions, type HarnessOptions } from "./options.js";
import { saveRegression } from "./regressions.js";
import { formatDetails, formatTable } from "./report.js";
import { failsOnInternal, selectTargets, type FuzzTarget } from "./targets/index.js";

async function main(options: HarnessOptions, targets: readonly FuzzTarget[]): Promise<number> {
  const eras =
    options.eras.length > 1
      ? `, rounds alternating between the ${options.eras.join(" and ")} eras`
      : ` in the ${options.eras.join("")} era`;
  console.log(
    `fuzz: ${options.calls} calls per server${eras}, seed ${options.seed} (FUZZ_SEED=${options.seed} repeats this run), servers: ${targets.map((t) => t.short).join(", ")}`,
  );
  const strict = targets.filter((t) => failsOnInternal(t, options.failOnInternal)).map((t) => t.short);
  console.log(
    `INTERNAL answers fail the run of: ${strict.length === 0 ? "none" : strict.join(", ")} (FUZZ_STRICT=${options.failOnInternal === undefined ? "unset: each server's default" : options.failOnInternal ? "1" : "0"})`,
  );
  const summaries: ServerSummary[] = [];
  /** Runs that stopped with an error (a server that does not serve the era fails to connect): failures too. */
  const aborted: string[] = [];
  for (const target of targets) {
    const runs = startRuns(target, options.eras, options.keepDirs);
    for (const era of options.eras) {
      console.log(`\n${target.name} (${era} era): fuzzing…`);
      let summary: ServerSummary;
      try {
        summary = await fuzzServer(
          target,
          {
            era,
            eras: options.eras,
            calls: options.calls,
            seed: options.seed,
            slackMs: options.slackMs,
            goldenRate: options.goldenRate,
            expensiveRate: options.expensiveRate,
            keepDir: options.keepDirs,
            failOnInternal: failsOnInternal(target, options.failOnInternal),
            progressEvery: Math.max(100, Math.floor(options.calls / options.eras.length / 10)),
            onProgress: (done, tally) => console.log(`  ${done} calls, ${tally.failedCalls} failed`),
          },
          runs.get(era),
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        console.log(`  FAILED: ${message}`);
        aborted.push(`${target.name} (${era})`);
        continue;
      }
      summaries.push(summary);
      console.log(formatDetails(summary));
      if (options.save) {
        for (const failed of summary.failed) {
          const path = await saveRegression(failed);
          if (path) console.log(`  saved ${path}`);
        }
      }
    }
    await disposeRuns(runs, options.keepDirs);
  }
  console.log(`\n${formatTable(summaries)}`);
  const failing = [
    ...summaries.filter(summaryFailed).map((s) => `${s.server} (${s.era})`),
    ...aborted.map((run) => `${run}, which stopped with an error`),
  ];
  console.log(failing.length === 0 ? "\nfuzz: no failures" : `\nfuzz: FAILED on ${failing.join(", ")}`);
  return failing.length === 0 ? 0 : 1;
}

let options: HarnessOptions;
let targets: FuzzTarget[];
try {
  options = harnessOptions(process.env, process.argv.slice(2));
  targets = selectTargets(options.servers);
} catch (error) {
  // Bad usage: one coded line, exit 2.
  process.stderr.write(`local-mcp-fuzz: INVALID_INPUT: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

main(options, targets).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(2);
  },
);
