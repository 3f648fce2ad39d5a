import { defineConfig } from "vitest/config";
import { sharedTestConfig, withOverlapping } from "../../vitest.shared.js";

// Every test here drives built bins as separate processes (the servers, the conformance suite on
// Node 22, the Inspector CLI): give them room on a busy 2-core machine. None times a call or holds
// one to a bound tighter than these timeouts (token-budgets' slowest call, catdoc's import on 2,000
// objects, has a 60 s deadline and took ~8 s alone), so all of them run two at a time; vitest
// starts the longest (token-budgets) first, and the others run one after another beside it.
export default defineConfig({
  test: withOverlapping({ ...sharedTestConfig, testTimeout: 60_000, hookTimeout: 120_000 }, [
    "conformance",
    "conformance-2026",
    "inspector",
    "requirement-set",
    "security-dashboards",
    "security-http-mcp",
    "security-secrets",
    "token-budgets",
    "tool-list-tokens",
  ]),
});
