/**
 * Every case the fuzz saved under regressions/ is sent again to a fresh server, in each protocol
 * era (FUZZ_ERA, both by default: a server's handlers are the same in both, so a fixed failure must
 * stay fixed through either connection), and must now pass every check — an INTERNAL answer
 * included, for a strict server (FUZZ_STRICT, else the target's default).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FuzzConnection } from "../src/connection.js";
import { runCase, startServer } from "../src/fuzz-server.js";
import { harnessOptions } from "../src/options.js";
import { loadRegressions } from "../src/regressions.js";
import { TARGETS, failsOnInternal, type PreparedTarget } from "../src/targets/index.js";

const saved = await loadRegressions();
const { failOnInternal, eras } = harnessOptions();

it("the saved cases name known servers", () => {
  expect(saved.filter(({ entry }) => !TARGETS.some((t) => t.name === entry.server)).map(({ file }) => file)).toEqual([]);
});

for (const target of TARGETS) {
  const cases = saved.filter(({ entry }) => entry.server === target.name);
  if (cases.length === 0) continue;
  for (const era of eras) {
    describe(`${target.name} (${era} era): saved fuzz failures`, () => {
      let dir: string;
      let prepared: PreparedTarget;
      let connection: FuzzConnection;
      beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), `fuzz-replay-${target.short}-${era}-`));
        prepared = await target.prepare(dir);
        ({ connection } = await startServer(target, prepared, era));
      }, 180_000);
      afterAll(async () => {
        await connection?.close();
        await rm(dir, { recursive: true, force: true });
      });
      for (const { file, entry } of cases) {
        it(`${file} (was: ${entry.failures.map((f) => f.kind).join(", ")}${entry.era ? ` in the ${entry.era} era` : ""})`, async () => {
          const { report } = await runCase(connection, entry, { prepared, slackMs: 5_000, failOnInternal: failsOnInternal(target, failOnInternal) });
          expect(report.failures).toEqual([]);
          expect(connection.exited).toBeUndefined();
        });
      }
    });
  }
}
