/**
 * Cancellation stops model generation. The built bin runs over stdio with the v2 SDK client on a
 * tiny generated GGUF (with the tiny LoRA at scale 0) whose weights (seed 20) do not reach end-of-sequence on this question
 * at temperature 0 (measured on x86-64: all 4,096 tokens of max_tokens, ~4.5 s), so the generation is long unless stopped.
 * Once the engine logs that it is generating and has worked for a moment, the client aborts the
 * call: in the handshake era over stdio that sends notifications/cancelled; in the 2026-07-28
 * era over --http it closes the request's stream. Either way:
 *  1. the work observed the abort: the engine logs that the generation stopped, after far fewer
 *     tokens than the uncancelled run of the same question, and the process idles (a generation
 *     that ran on would burn a core);
 *  2. nothing was written: mochi's generation tools write nothing, and the project folder is as it was;
 *  3. the server answers the next call: the same question, uncancelled, runs to its end.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuSeconds, stderrLine, spawnHttpServer, spawnStdioServer, writeTinyLlamaGguf, writeTinyLoraGguf } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ENV } from "./helpers/tiny-model.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const QUESTION = { instruction: "Where do tests live?", max_tokens: 4_096 };

interface Started {
  client: Client;
  pid: number;
  stderr: () => string;
  close: () => Promise<unknown>;
}

/** Ready once serving and the background preload has finished (no sleeps). */
const MODEL_READY = /ready on stdio[\s\S]*model ready|model ready[\s\S]*ready on stdio/;

/** The bin over stdio in the handshake era, or over --http with a client pinned to 2026-07-28. */
const TRANSPORTS = {
  "the handshake era over stdio": async (env: Record<string, string>, cwd: string): Promise<Started> => {
    const server = await spawnStdioServer({
      command: process.execPath,
      args: [MCP],
      env,
      cwd,
      era: "legacy",
      readyPattern: MODEL_READY,
      readyTimeoutMs: 60_000,
    });
    expect(server.client.getProtocolEra()).toBe("legacy");
    return { client: server.client, pid: server.child.pid as number, stderr: server.stderr, close: () => server.close() };
  },
  "the 2026-07-28 era over --http": async (env: Record<string, string>, cwd: string): Promise<Started> => {
    const server = await spawnHttpServer({ command: process.execPath, args: [MCP], env, cwd, readyTimeoutMs: 60_000 });
    await stderrLine(server.stderr, /model ready/);
    const client = await server.connect("modern");
    expect(client.getProtocolEra()).toBe("modern");
    return { client, pid: server.child.pid as number, stderr: server.stderr, close: () => server.close() };
  },
};

let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mochi-cancel-"));
  const model = join(dir, "tiny-seed-20.gguf");
  const adapter = join(dir, "tiny-lora.gguf");
  await writeTinyLlamaGguf(model, { seed: 20, contextLength: 8_192 });
  await writeTinyLoraGguf(adapter);
  env = {
    ...TEST_ENV,
    MOCHI_MODEL: model,
    // Scale 0: the base model's behaviour, through the adapter mochi requires.
    MOCHI_ADAPTER: `${adapter}:0`,
    MOCHI_CATALOG: join(dir, "project", ".mochi", "catalog.json"),
    MOCHI_CONTEXT_SIZE: "8192",
    MOCHI_DEADLINE_MS: "600000",
    LOCAL_MCP_LOG_LEVEL: "debug",
  };
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux").each(Object.entries(TRANSPORTS))("cancelling domain_query in %s", (name, start) => {
  let server: Started | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it("stops the generation at the next token, writes nothing, and answers the next call", async () => {
    server = await start(env, dir);
    const { client, pid, stderr } = server;
    const filesBefore = readdirSync(dir).sort();
    const controller = new AbortController();
    const from = stderr().length;
    const outcome = client.callTool({ name: "domain_query", arguments: QUESTION }, { signal: controller.signal, timeout: 600_000 }).then(
      () => "answered",
      () => "rejected",
    );
    // The engine is generating when the abort goes out: it logged so, and has spent 0.2 s of CPU since.
    await stderrLine(stderr, /DEBUG .*generating/, from);
    const generating = cpuSeconds(pid);
    await expect.poll(() => cpuSeconds(pid) - generating, { timeout: 30_000, interval: 10 }).toBeGreaterThanOrEqual(0.2);
    controller.abort("the test cancels the question");
    expect(await outcome).toBe("rejected");

    // 1. The generation loop saw the abort.
    const stopped = await stderrLine(stderr, /generation stopped/, from);
    const { generated: tokensOut, ms } = JSON.parse(stopped.slice(stopped.indexOf("{"))) as { generated: number; ms: number };
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const cpu = cpuSeconds(pid) - before;
    expect(cpu, `mochi-mcp used ${cpu.toFixed(2)} s of CPU in the 2 s after the generation stopped`).toBeLessThan(0.25);

    // 2. Nothing written.
    expect(readdirSync(dir).sort()).toEqual(filesBefore);

    // 3. The next call: the same question, uncancelled, generates far more.
    const full = await client.callTool({ name: "domain_query", arguments: QUESTION }, { timeout: 600_000 });
    expect(full.isError).toBeFalsy();
    const { tokens_generated, inference_time_ms } = full.structuredContent as { tokens_generated: number; inference_time_ms: number };
    console.log(
      `${name}: domain_query cancelled after ${tokensOut} tokens in ${ms} ms; uncancelled: ${tokens_generated} tokens in ${Math.round(inference_time_ms)} ms; CPU in the 2 s after: ${cpu.toFixed(2)} s`,
    );
    expect(tokensOut).toBeLessThan(tokens_generated / 4);
  }, 300_000);
});
