/**
 * The short fuzz run CI does: every stdio server gets a few hundred seeded calls (valid-looking,
 * mutated and golden) through the real SDK client, split between the two protocol eras (FUZZ_ERA,
 * both by default: one process connected with the 2025-11-25 handshake, one pinned to 2026-07-28),
 * and must hold up in each — no crash, clean stdout, every error coded (and, for a strict server,
 * none INTERNAL), every answer within its deadline, still answering afterwards. `pnpm fuzz` is the
 * same run at 10,000 calls per server.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Era } from "../src/era.js";
import { disposeRuns, fuzzServer, startRuns, type StartedRun } from "../src/fuzz-server.js";
import { harnessOptions } from "../src/options.js";
import { formatDetails, formatTable } from "../src/report.js";
import { TARGETS, failsOnInternal, type FuzzTarget } from "../src/targets/index.js";
import { describeValue } from "../src/wire-value.js";

/** Calls per server, all eras together: enough to touch every tool with every kind of mutation in each, quick on 2 cores. */
const SHORT_CALLS = 300;
/** A busy CI machine gets more slack than the full run's default. */
const SLACK_MS = 5_000;

describe("short fuzz run", () => {
  const { seed, failOnInternal, eras } = harnessOptions();
  // Every target's servers, both eras, start when the file does: the later targets' starts (model
  // loads, warm-up calls) happen while the first ones are fuzzed. Each run closes its own server;
  // disposeRuns closes any a failed run left.
  const runs = new Map<FuzzTarget, Map<Era, Promise<StartedRun>>>();
  beforeAll(() => {
    for (const target of TARGETS) runs.set(target, startRuns(target, eras));
  });
  afterAll(() => Promise.all([...runs.values()].map((started) => disposeRuns(started))));
  for (const target of TARGETS) {
    // Both eras' runs of a target go on at the same time: each is a chain of one call after another,
    // the test process generating and checking while its server works, so two chains keep both
    // cores busy. Each run's deadline checks allow SLACK_MS past a tool's own deadline, which two
    // runs at once stay far inside (the slowest answers are the model's, held to their deadline by
    // the server).
    describe(target.name, () => {
      const strict = failsOnInternal(target, failOnInternal);
      for (const era of eras) {
        const share = eras.length > 1 ? `its share (every other round) of ${SHORT_CALLS}` : String(SHORT_CALLS);
        it.concurrent(
          `${target.name} (${era} era) holds up under ${share} fuzzed calls (seed ${seed}${strict ? ", INTERNAL fails" : ""})`,
          async ({ expect }) => {
            // Solo's real quality gate is slow: allow about one golden save in the short run.
            const summary = await fuzzServer(
              target,
              { era, eras, calls: SHORT_CALLS, seed, slackMs: SLACK_MS, goldenRate: 0.04, expensiveRate: 0.004, failOnInternal: strict },
              runs.get(target)?.get(era),
            );
            console.log(`${formatTable([summary])}\n${formatDetails(summary)}`);
            const failures = summary.failed.map(
              (c) => `${c.tool} #${c.index}: ${c.failures.map((f) => `${f.kind}: ${f.detail}`).join("; ")} — ${describeValue(c.arguments)}`,
            );
            expect(failures).toEqual([]);
            expect(summary.tally.calls).toBe(summary.planned);
            expect(summary.planned).toBeGreaterThanOrEqual(Math.floor(SHORT_CALLS / eras.length) - summary.tools);
            expect(summary.nonJsonLines).toBe(0);
            expect(summary.restarts).toBe(0);
            expect(summary.answeredAfter, summary.afterDetail).toBe(true);
            // The run reached past validation: some calls succeeded and some failed with a tool error.
            expect(summary.tally.ok).toBeGreaterThan(0);
            expect(summary.tally.toolErrors).toBeGreaterThan(0);
            // Past readiness too: every fixture is complete (mochi and local-model run the tiny model).
            expect(summary.tally.codes.NOT_READY ?? 0).toBe(0);
          },
        );
      }
    });
  }
});
