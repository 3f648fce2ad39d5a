import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// Each test reads the whole source tree (the import graph, every comment, lint on snippets).
export default defineConfig({ test: { ...sharedTestConfig, testTimeout: 120_000, hookTimeout: 120_000 } });
