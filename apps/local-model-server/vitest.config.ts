import { defineConfig } from "vitest/config";
import { sharedTestConfig, withOverlapping } from "../../vitest.shared.js";

export default defineConfig({
  test: withOverlapping(
    sharedTestConfig,
    // In process or waiting on a spawned bin or git, with no timed bound: two at a time. Alone
    // afterwards: model, model-cancel and kill-during-generate (timed generation, cancels and
    // kills), parser-bounds and regex (deadlines), stats (stale-lock timings), and any file not listed.
    [
      "analyze",
      "bins",
      "chores",
      "cli",
      "code-languages",
      "config",
      "eras",
      "extract",
      "generate",
      "git",
      "input-bounds",
      "level-shares",
      "model-gate",
      "security",
      "security-git-paths",
      "security-secrets",
      "security-unusable-paths",
      "task-response",
      "template-safety",
      "unified-diff",
      "verify",
    ],
  ),
});
