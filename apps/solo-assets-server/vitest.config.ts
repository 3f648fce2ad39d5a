import { defineConfig } from "vitest/config";
import { sharedTestConfig, withOverlapping } from "../../vitest.shared.js";

export default defineConfig({
  test: withOverlapping(
    {
      ...sharedTestConfig,
      globalSetup: ["test/global-setup.ts"],
      // Saves run real ruff, mypy and Python subprocesses: give them room on a busy 2-core machine.
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
    // These wait mostly on ruff, mypy, the sandboxed Python runs or a spawned bin, with no short
    // limit. Alone afterwards: gate and gate-cancel (a 2.5 s test limit, timed cancels),
    // security-sandbox (a 3 s limit), kill-during-save (timed kills), resource-changes
    // (notification polls), storage (lock timeouts), dashboard, and security-secrets (one test
    // of four gated saves that came within its 60 s on a loaded machine even alone).
    [
      "bins",
      "clean-library",
      "cli",
      "composition",
      "concurrency",
      "config",
      "critic",
      "demo-flow",
      "embedding-backends",
      "embeddings",
      "eras",
      "gate-unavailable",
      "index-persistence",
      "inspector",
      "level-shares",
      "lint-and-types",
      "local-critic",
      "nearest-functions",
      "search-index",
      "search-quality",
      "security-paths",
      "server",
      "settings-store",
      "start-up",
      "stdio",
      "term-postings",
      "test-verdict",
      "tools",
    ],
  ),
});
