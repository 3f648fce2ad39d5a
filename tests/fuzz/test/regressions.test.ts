/**
 * Every case the fuzz saved under regressions/ is sent again to a fresh server, in each protocol
 * era (FUZZ_ERA, both by default: a server's handlers are the same in both, so a fixed failure must
 * stay fixed through either connection), and must now pass every check — an INTERNAL answer
 * included, for a strict server (FUZZ_STRICT, else the target's default).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Era } from "../src/era.js";
import { disposeRuns, runCase, startRuns, type StartedRun } from "../src/fuzz-server.js";
import { harnessOptions } from "../src/options.js";
import { loadRegressions } from "../src/regressions.js";
import { TARGETS, failsOnInternal, type FuzzTarget } from "../src/targets/index.js";

const saved = await loadRegressions();
const { failOnInternal, eras } = harnessOptions();

it("the saved cases name known servers", () => {
  expect(saved.filter(({ entry }) => !TARGETS.some((t) => t.name === entry.server)).map(({ file }) => file)).toEqual([]);
});

// Every server with saved cases, both eras, starts (and warms up) when the file does, as in a run:
// the later servers' starts happen while the first ones replay. Each era's cases go to its own
// server, one after another; the two eras of a server replay at the same time.
const withCases = TARGETS.filter((target) => saved.some(({ entry }) => entry.server === target.name));
const runs = new Map<FuzzTarget, Map<Era, Promise<StartedRun>>>();
beforeAll(() => {
  for (const target of withCases) runs.set(target, startRuns(target, eras));
});
afterAll(() => Promise.all([...runs.values()].map((started) => disposeRuns(started))));

for (const target of withCases) {
  const cases = saved.filter(({ entry }) => entry.server === target.name);
  describe(`${target.name}: saved fuzz failures`, () => {
    for (const era of eras) {
      describe(`${era} era`, { concurrent: true }, () => {
        let run: StartedRun;
        beforeAll(async () => {
          const started = runs.get(target)?.get(era);
          if (!started) throw new Error(`no ${era} run was started`);
          run = await started;
        }, 180_000);
        for (const { file, entry } of cases) {
          it.sequential(
            `${file} (was: ${entry.failures.map((f) => f.kind).join(", ")}${entry.era ? ` in the ${entry.era} era` : ""})`,
            async ({ expect }) => {
              const { report } = await runCase(run.connection, entry, {
                prepared: run.prepared,
                slackMs: 5_000,
                failOnInternal: failsOnInternal(target, failOnInternal),
              });
              expect(report.failures).toEqual([]);
              expect(run.connection.exited).toBeUndefined();
            },
          );
        }
      });
    }
  });
}
