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
    // limit (gate's 2.5 s test limit is only its endless loop's; resource-changes waits up to 30 s
    // for a notification; security-secrets' tests get 180 s; security-sandbox's 3 s limit is only its
    // spinning probe's). Alone afterwards: gate-cancel (timed cancels, a build that must outlast a
    // second save's checks), kill-during-save (timed kills), storage (lock timeouts) and dashboard.
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
      "find-executable",
      "export-requirements",
      "gate",
      "gate-unavailable",
      "index-persistence",
      "inspector",
      "level-shares",
      "lint-and-types",
      "local-critic",
      "nearest-functions",
      "resource-changes",
      "search-index",
      "search-quality",
      "security-paths",
      "security-sandbox",
      "security-secrets",
      "server",
      "settings-store",
      "start-up",
      "stdio",
      "term-postings",
      "test-verdict",
      "tools",
      "write-checkpoint",
    ],
  ),
});
