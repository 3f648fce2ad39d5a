import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// Every test here drives built bins as separate processes and performs an attack for real: give
// them room on a busy 2-core machine. Files run one at a time so timing-sensitive attacks (races,
// deadlines) do not compete with each other for the two cores.
export default defineConfig({ test: { ...sharedTestConfig, testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false } });
