import { z } from "zod";
import { parseCommonConfig, type Env } from "../config.js";
import { abortableDelay } from "../guards/deadline.js";
import { createLogger } from "../logger.js";
import { LeveledResponse } from "../response-level.js";
import { defineResource } from "../resource-definition.js";
import { createServer, type CreatedServer } from "../server/create-server.js";
import { READ_ONLY, defineTool } from "../tool-definition.js";
import { SAMPLE_APP_INFO } from "./sample-info.js";

/**
 * The sample server: the smallest real server on the core contract. It is what `pnpm demo`
 * starts while the app servers are being built, what the benchmark measures against the
 * reference `server-memory`, and what the stdio test spawns. Its tools do real (tiny) work.
 */

export const echoTool = defineTool({
  name: "echo",
  title: "Echo",
  description: "Returns the given text with its length and word count. A trivial tool for checking a connection.",
  input: z.object({ text: z.string().max(100_000).describe("Text to echo back") }),
  output: z.object({
    text: z.string(),
    length: z.number().int(),
    words: z.number().int().optional(),
    received_at: z.string().optional(),
  }),
  annotations: READ_ONLY,
  handler: async ({ text }) =>
    new LeveledResponse({
      minimal: { text, length: text.length },
      standard: { words: text.split(/\s+/).filter(Boolean).length },
      full: { received_at: new Date().toISOString() },
    }),
});

export const waitTool = defineTool({
  name: "wait",
  title: "Wait",
  description: "Waits the given milliseconds, reporting progress; stops at the deadline (L-response-time).",
  input: z.object({ ms: z.number().int().min(0).max(60_000).describe("How long to wait") }),
  output: z.object({ waited_ms: z.number().int() }),
  annotations: READ_ONLY,
  timeoutMs: 10_000,
  handler: async ({ ms }, { signal, logger }) => {
    const start = Date.now();
    // Reaches stderr, and the client too when its request asked for log messages.
    logger.info(`waiting ${ms} ms`);
    await abortableDelay(ms, signal);
    return new LeveledResponse({ minimal: { waited_ms: Date.now() - start } });
  },
});

export function createSampleServer(env: Env): CreatedServer {
  const common = parseCommonConfig(env);
  const logger = createLogger({ name: SAMPLE_APP_INFO.name, level: common.logLevel });
  const startedAt = new Date().toISOString();
  return createServer({
    name: SAMPLE_APP_INFO.name,
    version: SAMPLE_APP_INFO.version,
    title: SAMPLE_APP_INFO.title,
    instructions: "A sample server of the local-mcp core: echo text, wait with progress.",
    responseLevel: common.responseLevel,
    resourcePollMs: common.resourcePollMs,
    logger,
    tools: [echoTool, waitTool],
    resources: [
      defineResource({
        uri: "sample://server-info",
        name: "server-info",
        title: "Sample server info",
        mimeType: "application/json",
        read: async () => ({ json: { name: SAMPLE_APP_INFO.name, version: SAMPLE_APP_INFO.version, startedAt, tools: ["echo", "wait"] } }),
      }),
    ],
  });
}
