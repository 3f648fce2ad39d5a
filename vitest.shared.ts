import type { ViteUserConfig } from "vitest/config";

/**
 * Settings every package's vitest config shares. Besides the usual console report, each run writes
 * test-results/vitest.json, from which `.ci/run` sums the passed and failed tests of all packages.
 */
export const sharedTestConfig = {
  include: ["test/**/*.test.ts"],
  testTimeout: 20_000,
  hookTimeout: 20_000,
  reporters: ["default", "json"],
  outputFile: { json: "test-results/vitest.json" },
} satisfies NonNullable<ViteUserConfig["test"]>;

/** How many test files of an `overlapping` list run at once. */
export const OVERLAP_WORKERS = 2;

type TestConfig = NonNullable<ViteUserConfig["test"]>;

/**
 * A package's test settings split in two projects run one after the other: the files named in
 * `overlapping` first, OVERLAP_WORKERS at a time; then every other file alone, as vitest runs them
 * all on a 2-core machine (one worker: cores − 1). Name a file only when it waits mostly on child
 * processes or I/O, or is short, and asserts no duration or deadline tighter than its generous
 * timeouts; files timing a cancel, a kill, a lock, a poll or a short limit stay off the list, and
 * so does a new file until someone checks it. Names are paths under test/ without `.test.ts`.
 */
export function withOverlapping(settings: TestConfig, overlapping: readonly string[]): TestConfig {
  // Each project names its own files (a project's include would add to an inherited one).
  const { include = ["test/**/*.test.ts"], ...rest } = settings;
  const files = overlapping.map((name) => `test/${name}.test.ts`);
  return {
    ...rest,
    projects: [
      { extends: true, test: { name: "overlapping", include: files, maxWorkers: OVERLAP_WORKERS, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "one-at-a-time", include, exclude: files, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  };
}
