import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// The short fuzz run drives every built server as a separate process for a few hundred calls
// each: give it room on a busy 2-core machine. Files run one after another (fileParallelism off)
// so two suites never fight over the cores and skew the deadline checks.
export default defineConfig({
  test: { ...sharedTestConfig, testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false },
});
