import { defineConfig } from "vitest/config";
import { sharedTestConfig, withOverlapping } from "../../vitest.shared.js";

// test/fixtures holds a sample repository whose own *.test.ts files are data for the indexer, not tests.
export default defineConfig({
  test: withOverlapping(
    { ...sharedTestConfig, exclude: ["test/fixtures/**", "**/node_modules/**"] },
    // In process, or waiting on a spawned bin or a one-thread model, with no timed bound: two at a
    // time. Alone afterwards: the timed ones (completion-speed, generation-cancel's cancels, laws'
    // response-time law, start-up, index-throughput, resource-changes' polls), train (torch takes
    // both cores), and any file not listed.
    [
      "adapter-convert",
      "analyzers",
      "catalog-file",
      "cli",
      "completion-boundary",
      "config",
      "dataset",
      "eras",
      "eval",
      "eval-cli",
      "eval-metrics",
      "index-catalog",
      "level-shares",
      "remote-backend",
      "repository-context",
      "resources",
      "security-paths",
      "server",
      "stdio",
      "stock-model",
      "tools",
    ],
  ),
});
