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
import { TARGETS, failsOnInternal } from "../src/targets/index.js";

const saved = await loadRegressions();
const { failOnInternal, eras } = harnessOptions();

it("the saved cases name known servers", () => {
  expect(saved.filter(({ entry }) => !TARGETS.some((t) => t.name === entry.server)).map(({ file }) => file)).toEqual([]);
});

for (const target of TARGETS) {
  const cases = saved.filter(({ entry }) => entry.server === target.name);
  if (cases.length === 0) continue;
  describe(`${target.name}: saved fuzz failures`, () => {
    // Both eras' servers start together (and warm up) as in a run; each era's cases go to its own.
    let runs: Map<Era, Promise<StartedRun>> = new Map();
    beforeAll(() => {
      runs = startRuns(target, eras);
    });
    afterAll(() => disposeRuns(runs));
    for (const era of eras) {
      describe(`${era} era`, () => {
        let run: StartedRun;
        beforeAll(async () => {
          const started = runs.get(era);
          if (!started) throw new Error(`no ${era} run was started`);
          run = await started;
        }, 180_000);
        for (const { file, entry } of cases) {
          it(`${file} (was: ${entry.failures.map((f) => f.kind).join(", ")}${entry.era ? ` in the ${entry.era} era` : ""})`, async () => {
            const { report } = await runCase(run.connection, entry, {
              prepared: run.prepared,
              slackMs: 5_000,
              failOnInternal: failsOnInternal(target, failOnInternal),
            });
            expect(report.failures).toEqual([]);
            expect(run.connection.exited).toBeUndefined();
          });
        }
      });
    }
  });
}
