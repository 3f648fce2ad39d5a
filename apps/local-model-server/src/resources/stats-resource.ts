/** `local://stats`: calls per tool and engine, tokens used and saved, latency p50/p95 — across restarts. */
import { defineResource, type ResourceDefinition } from "@local-mcp/core";
import type { LocalModelRuntime } from "../runtime.js";

export const STATS_URI = "local://stats";

export function statsResource(runtime: LocalModelRuntime): ResourceDefinition {
  return defineResource({
    uri: STATS_URI,
    name: "stats",
    title: "Local model usage statistics",
    description:
      "Calls per tool and engine, errors by code, model tokens used, tokens saved and tokens over (answers that cost more than their input; estimates), latency p50/p95; persisted in the state dir.",
    mimeType: "application/json",
    read: async () => ({ json: await runtime.stats.view() }),
  });
}
