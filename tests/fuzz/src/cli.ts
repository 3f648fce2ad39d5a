#!/usr/bin/env node
/**
 * `pnpm fuzz`: the full fuzz run. Every selected server gets FUZZ_CALLS calls (10,000 by
 * default) from FUZZ_SEED; prints one row per server (calls, crashes, non-JSON stdout lines,
 * uncoded errors, deadline overruns, other failures, ok / tool-error / protocol-error counts,
 * latencies, whether it answered afterwards), saves each distinct failure under
 * tests/fuzz/regressions/, and exits 1 on any failure.
 */
import { fuzzServer, summaryFailed, type ServerSummary } from "./fuzz-server.js";
import { harnessOptions } from "./options.js";
import { saveRegression } from "./regressions.js";
import { formatDetails, formatTable } from "./report.js";
import { failsOnInternal, selectTargets } from "./targets/index.js";

async function main(): Promise<number> {
  const options = harnessOptions();
  const targets = selectTargets(options.servers);
  console.log(`fuzz: ${options.calls} calls per server, seed ${options.seed} (FUZZ_SEED=${options.seed} repeats this run), servers: ${targets.map((t) => t.short).join(", ")}`);
  const strict = targets.filter((t) => failsOnInternal(t, options.failOnInternal)).map((t) => t.short);
  console.log(`INTERNAL answers fail the run of: ${strict.length === 0 ? "none" : strict.join(", ")} (FUZZ_STRICT=${options.failOnInternal === undefined ? "unset: each server's default" : options.failOnInternal ? "1" : "0"})`);
  const summaries: ServerSummary[] = [];
  for (const target of targets) {
    console.log(`\n${target.name}: fuzzing…`);
    const summary = await fuzzServer(target, {
      calls: options.calls,
      seed: options.seed,
      slackMs: options.slackMs,
      goldenRate: options.goldenRate,
      expensiveRate: options.expensiveRate,
      keepDir: options.keepDirs,
      failOnInternal: failsOnInternal(target, options.failOnInternal),
      progressEvery: Math.max(100, Math.floor(options.calls / 10)),
      onProgress: (done, tally) => console.log(`  ${done}/${options.calls} calls, ${tally.failedCalls} failed`),
    });
    summaries.push(summary);
    console.log(formatDetails(summary));
    if (options.save) {
      for (const failed of summary.failed) {
        const path = await saveRegression(failed);
        if (path) console.log(`  saved ${path}`);
      }
    }
  }
  console.log(`\n${formatTable(summaries)}`);
  const failing = summaries.filter(summaryFailed);
  console.log(failing.length === 0 ? "\nfuzz: no failures" : `\nfuzz: FAILED on ${failing.map((s) => s.server).join(", ")}`);
  return failing.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(2);
  },
);
