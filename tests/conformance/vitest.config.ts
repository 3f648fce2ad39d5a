import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// Every test here drives built bins as separate processes (the servers, the conformance suite on
// Node 22, the Inspector CLI): give them room on a busy 2-core machine.
export default defineConfig({ test: { ...sharedTestConfig, testTimeout: 60_000, hookTimeout: 120_000 } });
