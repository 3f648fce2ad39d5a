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
