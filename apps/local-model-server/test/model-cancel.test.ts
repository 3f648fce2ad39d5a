/**
 * Cancellation stops the model path. The built bin runs over stdio with the v2 SDK client on the
 * tiny generated GGUF (core's LlamaEngine, 1 thread); local_extract with engine "model" gets a
 * schema whose grammar forces a long answer (700 booleans: thousands of tokens of the tiny
 * model's byte vocabulary), so the generation cannot end early at end-of-sequence. Once the engine logs that it
 * is generating and has worked for a moment, the client aborts the call, which sends
 * notifications/cancelled (the handshake era). Then:
 *  1. the work observed the abort: the engine logs that the generation stopped, after far fewer
 *     tokens than the uncancelled run of the same call, and the process idles;
 *  2. nothing was half-written: the state folder's stats.json still parses, and the project is unchanged;
 *  3. the server answers the next call: the same call, uncancelled, runs to its end.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeTinyLlamaGguf } from "@local-mcp/core/testing";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
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

/** User plus system CPU time of a process, in seconds (Linux: /proc/<pid>/stat, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Every file under `dir` with its size and modification time. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => {
      const stats = statSync(join(dir, name));
      return `${name} ${stats.size} ${stats.mtimeMs}`;
    })
    .sort();
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let client: Client;
let pid: number;
let stderr = "";

/** Resolves once stderr (from `from` on) holds a line matching `pattern`; returns that line. */
async function stderrLine(pattern: RegExp, from = 0, timeoutMs = 60_000): Promise<string> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const line = stderr.slice(from).split("\n").find((l) => pattern.test(l));
    if (line !== undefined) return line;
  }
  throw new Error(`no line matching ${pattern} on local-model-mcp's stderr within ${timeoutMs} ms:\n${stderr.slice(from, from + 4_000)}`);
}

beforeAll(async () => {
  dir = await tempDir("local-model-cancel-");
  const model = join(dir.path, "tiny.gguf");
  await writeTinyLlamaGguf(model, { contextLength: 16_384 });
  mkdirSync(join(dir.path, "state"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP],
    cwd: PROJECT,
    env: {
      ...(process.env as Record<string, string>),
      LOCAL_MODEL_ROOTS: PROJECT,
      LOCAL_MODEL_STATE_DIR: join(dir.path, "state"),
      LOCAL_MODEL_MODEL_PATH: model,
      LOCAL_MODEL_MODEL_THREADS: "1",
      LOCAL_MODEL_MODEL_GPU: "cpu",
      LOCAL_MODEL_MODEL_CONTEXT_SIZE: "16384",
      LOCAL_MODEL_MODEL_MAX_TOKENS: "7000",
      LOCAL_MODEL_TIMEOUT_MS: "600000",
      LOCAL_MODEL_CONFIDENCE_THRESHOLD: "0",
      LOCAL_MODEL_MAX_INPUT_CHARS: "400",
      LOCAL_MCP_LOG_LEVEL: "debug",
    },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  client = new Client({ name: "local-model-cancel-test", version: "0.0.0" });
  await client.connect(transport);
  if (transport.pid === null) throw new Error("local-model-mcp did not start");
  pid = transport.pid;
}, 60_000);

afterAll(async () => {
  await client?.close();
  await dir?.remove();
});

describe.runIf(process.platform === "linux")("cancelling a model task of local_extract (handshake era, stdio)", () => {
  it("stops the generation at the next token, leaves the state consistent, and answers the next call", async () => {
    const projectBefore = snapshot(PROJECT);
    const controller = new AbortController();
    const from = stderr.length;
    const outcome = client.callTool({ name: "local_extract", arguments: CALL }, { signal: controller.signal, timeout: 600_000 }).then(
      (result) => `answered: ${JSON.stringify(result.structuredContent).slice(0, 300)}`,
      () => "rejected",
    );
    // The engine is generating when the abort goes out: it logged so, and has spent 0.2 s of CPU since.
    await stderrLine(/DEBUG .*generating/, from);
    const generating = cpuSeconds(pid);
    await expect.poll(() => cpuSeconds(pid) - generating, { timeout: 30_000, interval: 10 }).toBeGreaterThanOrEqual(0.2);
    controller.abort("the test cancels the extraction");
    expect(await outcome).toBe("rejected");

    // 1. The generation loop saw the abort, and the process idles.
    const stopped = await stderrLine(/generation stopped/, from);
    const { generated, ms } = JSON.parse(stopped.slice(stopped.indexOf("{"))) as { generated: number; ms: number };
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const cpu = cpuSeconds(pid) - before;
    expect(cpu, `local-model-mcp used ${cpu.toFixed(2)} s of CPU in the 2 s after the generation stopped`).toBeLessThan(0.25);

    // 2. The state is consistent and the project untouched.
    const stats = existsSync(join(dir.path, "state", "stats.json")) ? readFileSync(join(dir.path, "state", "stats.json"), "utf8") : "{}";
    expect(() => JSON.parse(stats) as unknown, "stats.json").not.toThrow();
    expect(snapshot(PROJECT)).toEqual(projectBefore);

    // 3. The next call: the same extraction, uncancelled, runs to its end.
    const full = await client.callTool({ name: "local_extract", arguments: CALL }, { timeout: 600_000 });
    expect(full.isError, JSON.stringify(full.structuredContent).slice(0, 500)).toBeFalsy();
    const body = full.structuredContent as { schema_valid: boolean; stats: { model_tokens_out: number } };
    expect(body.schema_valid).toBe(true);
    const out = body.stats.model_tokens_out;
    console.log(`local_extract cancelled after ${generated} tokens in ${ms} ms; uncancelled: ${out} tokens; CPU in the 2 s after: ${cpu.toFixed(2)} s`);
    expect(generated).toBeLessThan(out / 4);
  }, 300_000);
});
