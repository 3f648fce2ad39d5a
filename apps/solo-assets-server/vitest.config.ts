import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...sharedTestConfig,
    globalSetup: ["test/global-setup.ts"],
    // Saves run real ruff, mypy and Python subprocesses: give them room on a busy 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
