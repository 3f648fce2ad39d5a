/**
 * Cancellation stops the model path. The built bin runs over stdio with the v2 SDK client on the
 * tiny generated GGUF (core's LlamaEngine, 1 thread); local_extract with engine "model" gets a
 * schema whose grammar forces a long answer (700 booleans: thousands of tokens of the tiny
 * model's byte vocabulary), so the generation cannot end early at end-of-sequence. Once the engine logs that it
 * is generating and has worked for a moment, the client aborts the call: in the handshake era
 * over stdio that sends notifications/cancelled; in the 2026-07-28 era over --http it closes the
 * request's stream. Either way:
 *  1. the work observed the abort: the engine logs that the generation stopped, after far fewer
 *     tokens than the uncancelled run of the same call, and the process idles;
 *  2. nothing was half-written: the state folder's stats.json still parses, and the project is unchanged;
 *  3. the server answers the next call: the same call, uncancelled, runs to its end.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { cpuSeconds, stderrLine, spawnHttpServer, spawnStdioServer, writeTinyLlamaGguf } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_DIR, PROJECT, tempDir } from "./helpers.js";

const MCP = join(APP_DIR, "dist/mcp.js");
const PLAN = ".planning/phases/01-data-foundation/01-01-PLAN.md";
const ITEMS = 700;
const LONG = {
  type: "object",
  properties: { flags: { type: "array", items: { type: "boolean" }, minItems: ITEMS, maxItems: ITEMS } },
  required: ["flags"],
  additionalProperties: false,
};
const CALL = { task_type: "frontmatter", engine: "model", files: [PLAN], schema: LONG, response_level: "full" };

/** Every file under `dir` with its size and modification time. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => {
      const stats = statSync(join(dir, name));
      return `${name} ${stats.size} ${stats.mtimeMs}`;
    })
    .sort();
}

interface Started {
  client: Client;
  pid: number;
  stderr: () => string;
  close: () => Promise<unknown>;
}

/** The bin over stdio in the handshake era, or over --http with a client pinned to 2026-07-28. */
const TRANSPORTS = {
  "the handshake era over stdio": async (env: Record<string, string>): Promise<Started> => {
    const server = await spawnStdioServer({
      command: process.execPath,
      args: [MCP],
      env,
      cwd: PROJECT,
      era: "legacy",
      readyTimeoutMs: 30_000,
    });
    expect(server.client.getProtocolEra()).toBe("legacy");
    return { client: server.client, pid: server.child.pid as number, stderr: server.stderr, close: () => server.close() };
  },
  "the 2026-07-28 era over --http": async (env: Record<string, string>): Promise<Started> => {
    const server = await spawnHttpServer({ command: process.execPath, args: [MCP], env, cwd: PROJECT, readyTimeoutMs: 30_000 });
    const client = await server.connect("modern");
    expect(client.getProtocolEra()).toBe("modern");
    return { client, pid: server.child.pid as number, stderr: server.stderr, close: () => server.close() };
  },
};

let dir: Awaited<ReturnType<typeof tempDir>>;
let model: string;

beforeAll(async () => {
  dir = await tempDir("local-model-cancel-");
  model = join(dir.path, "tiny.gguf");
  await writeTinyLlamaGguf(model, { contextLength: 16_384 });
});

afterAll(async () => {
  await dir?.remove();
});

/** The server's settings; each transport gets its own state folder. */
function envFor(state: string): Record<string, string> {
  mkdirSync(state);
  return {
    LOCAL_MODEL_ROOTS: PROJECT,
    LOCAL_MODEL_STATE_DIR: state,
    LOCAL_MODEL_MODEL_PATH: model,
    LOCAL_MODEL_MODEL_THREADS: "1",
    LOCAL_MODEL_MODEL_GPU: "cpu",
    LOCAL_MODEL_MODEL_CONTEXT_SIZE: "16384",
    LOCAL_MODEL_MODEL_MAX_TOKENS: "7000",
    LOCAL_MODEL_TIMEOUT_MS: "600000",
    LOCAL_MODEL_CONFIDENCE_THRESHOLD: "0",
    LOCAL_MODEL_MAX_INPUT_CHARS: "400",
    LOCAL_MCP_LOG_LEVEL: "debug",
  };
}

describe.runIf(process.platform === "linux").each(Object.entries(TRANSPORTS))(
  "cancelling a model task of local_extract in %s",
  (name, start) => {
    let server: Started | undefined;
    afterAll(async () => {
      await server?.close();
    });

    it("stops the generation at the next token, leaves the state consistent, and answers the next call", async () => {
      const state = join(dir.path, name.replace(/\W+/g, "-"));
      server = await start(envFor(state));
      const { client, pid, stderr } = server;
      const projectBefore = snapshot(PROJECT);
      const controller = new AbortController();
      const from = stderr().length;
      const outcome = client.callTool({ name: "local_extract", arguments: CALL }, { signal: controller.signal, timeout: 600_000 }).then(
        (result) => `answered: ${JSON.stringify(result.structuredContent).slice(0, 300)}`,
        () => "rejected",
      );
      // The engine is generating when the abort goes out: it logged so, and has spent 0.2 s of CPU since.
      await stderrLine(stderr, /DEBUG .*generating/, from);
      const generating = cpuSeconds(pid);
      await expect.poll(() => cpuSeconds(pid) - generating, { timeout: 30_000, interval: 10 }).toBeGreaterThanOrEqual(0.2);
      controller.abort("the test cancels the extraction");
      expect(await outcome).toBe("rejected");

      // 1. The generation loop saw the abort, and the process idles.
      const stopped = await stderrLine(stderr, /generation stopped/, from);
      const { generated, ms } = JSON.parse(stopped.slice(stopped.indexOf("{"))) as { generated: number; ms: number };
      const before = cpuSeconds(pid);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const cpu = cpuSeconds(pid) - before;
      expect(cpu, `local-model-mcp used ${cpu.toFixed(2)} s of CPU in the 2 s after the generation stopped`).toBeLessThan(0.25);

      // 2. The state is consistent and the project untouched.
      const stats = existsSync(join(state, "stats.json")) ? readFileSync(join(state, "stats.json"), "utf8") : "{}";
      expect(() => JSON.parse(stats) as unknown, "stats.json").not.toThrow();
      expect(snapshot(PROJECT)).toEqual(projectBefore);

      // 3. The next call: the same extraction, uncancelled, runs to its end.
      const full = await client.callTool({ name: "local_extract", arguments: CALL }, { timeout: 600_000 });
      expect(full.isError, JSON.stringify(full.structuredContent).slice(0, 500)).toBeFalsy();
      const body = full.structuredContent as { schema_valid: boolean; stats: { model_tokens_out: number } };
      expect(body.schema_valid).toBe(true);
      const out = body.stats.model_tokens_out;
      console.log(
        `${name}: local_extract cancelled after ${generated} tokens in ${ms} ms; uncancelled: ${out} tokens; CPU in the 2 s after: ${cpu.toFixed(2)} s`,
      );
      expect(generated).toBeLessThan(out / 4);
    }, 300_000);
  },
);
