import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { connectInProcess, writeTinyLoraGguf, type InProcessConnection } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "@local-mcp/core";
import { loadMochiConfig } from "../src/config.js";
import { MochiRuntime } from "../src/runtime.js";
import { createMochiServer } from "../src/server.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { startRuntime, TEST_ENV, writeTinyModelFiles, type TinyModelFiles } from "./helpers/tiny-model.js";
import { resourceText } from "./helpers/resource-text.js";

let model: TinyModelFiles;
let repo: string;
let empty: string;
const open: Array<{ connection: InProcessConnection; runtime: MochiRuntime }> = [];

beforeAll(async () => {
  model = await writeTinyModelFiles();
  repo = copyFixtureRepo();
  await indexInto(repo);
  empty = mkdtempSync(join(tmpdir(), "mochi-empty-"));
});

afterAll(async () => {
  for (const { connection, runtime } of open) {
    await connection.close();
    await runtime.dispose();
  }
  for (const dir of [model.dir, repo, empty]) rmSync(dir, { recursive: true, force: true });
});

async function serve(env: Record<string, string>, cwd = repo) {
  const runtime = await startRuntime(env, cwd);
  const connection = await connectInProcess(createMochiServer(runtime.config, { runtime }));
  open.push({ connection, runtime });
  return { runtime, connection };
}

async function call(connection: InProcessConnection, name: string, args: Record<string, unknown>) {
  const started = performance.now();
  const result = (await connection.client.callTool({ name, arguments: args })) as CallToolResult;
  return { result, body: result.structuredContent as Record<string, unknown>, ms: performance.now() - started };
}

function errorOf(result: CallToolResult): { code: string; message: string; recoverable: boolean } {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: { code: string; message: string; recoverable: boolean } }).error;
}

describe("L-response-time", () => {
  // A long greedy generation on the tiny model (found by trying prompts; no catalog, so the prompt
  // is short), measured once under a relaxed deadline.
  const LONG = { instruction: "Tell the story number 80.", max_tokens: 1_500 };

  it("a tiny deadline answers TIMEOUT at the deadline, and the generation really stopped", async () => {
    const relaxed = await serve({ MOCHI_MODEL: model.plainModel, MOCHI_ADAPTER: model.lora, MOCHI_DEADLINE_MS: "30000" }, empty);
    const baseline = await call(relaxed.connection, "domain_query", LONG);
    expect(baseline.result.isError).toBeFalsy();
    expect(baseline.body.tokens_generated).toBeGreaterThan(800);
    const fullMs = baseline.body.inference_time_ms as number;
    // A quarter of the full generation: the rest would hold the only sequence three times as long.
    const deadline = Math.max(40, Math.round(fullMs / 4));
    expect(fullMs).toBeGreaterThan(3 * deadline);

    const tight = await serve({ MOCHI_MODEL: model.plainModel, MOCHI_ADAPTER: model.lora, MOCHI_DEADLINE_MS: String(deadline) }, empty);
    const timedOut = await call(tight.connection, "domain_query", LONG);
    const error = errorOf(timedOut.result);
    expect(error.code).toBe("TIMEOUT");
    expect(timedOut.ms).toBeLessThan(deadline + 250);
    // The engine has one sequence. Had the timed-out generation gone on, this call would wait
    // behind it for about 3 × deadline and time out too; it answers within the same deadline.
    const next = await call(tight.connection, "domain_query", { instruction: "Hi", max_tokens: 4 });
    expect(next.result.isError).toBeFalsy();
    expect(next.body.tokens_generated).toBe(4);
  });
});

describe("L-adapter-required", () => {
  it("without MOCHI_MODEL the model tools answer NOT_READY naming it; catalog features keep working", async () => {
    const { connection } = await serve({});
    for (const [name, args] of [
      ["domain_query", { instruction: "What is this?" }],
      ["complete_code", { prefix: "const x = " }],
    ] as const) {
      const error = errorOf((await call(connection, name, args)).result);
      expect(error.code).toBe("NOT_READY");
      expect(error.message).toContain("MOCHI_MODEL is not set");
      expect(error.recoverable).toBe(false);
    }
    const suggested = await call(connection, "suggest_pattern", { goal: "custom error classes", response_level: "full" });
    expect(suggested.result.isError).toBeFalsy();
    expect(suggested.body.patterns).toHaveLength(3);
    expect(suggested.body.note).toContain("not loaded");
    expect(resourceText(await connection.client.readResource({ uri: "mochi://patterns/registry" }))).toContain("# Registries");
  });

  it("a model without its adapter is NOT_READY naming MOCHI_ADAPTER, and nothing is loaded", async () => {
    const { connection, runtime } = await serve({ MOCHI_MODEL: model.fimModel });
    const error = errorOf((await call(connection, "domain_query", { instruction: "What is this?" })).result);
    expect(error.code).toBe("NOT_READY");
    expect(error.message).toContain("MOCHI_ADAPTER is not set");
    expect(runtime.model.name).toBeUndefined();
    expect((await call(connection, "suggest_pattern", { goal: "register handlers" })).result.isError).toBeFalsy();
  });

  it("with MOCHI_REQUIRE_ADAPTER, catalog features wait for the adapter too; stats stay readable", async () => {
    const { connection } = await serve({ MOCHI_MODEL: model.fimModel, MOCHI_REQUIRE_ADAPTER: "1" });
    const error = errorOf((await call(connection, "suggest_pattern", { goal: "register handlers" })).result);
    expect(error.code).toBe("NOT_READY");
    await expect(connection.client.readResource({ uri: "mochi://patterns/registry" })).rejects.toThrow(/NOT_READY/);
    const stats = JSON.parse(resourceText(await connection.client.readResource({ uri: "mochi://stats" }))) as {
      model: { readiness: { state: string; reason: string } };
    };
    expect(stats.model.readiness).toMatchObject({ state: "unconfigured" });
    expect(stats.model.readiness.reason).toContain("MOCHI_ADAPTER");
  });

  it("before the model has loaded, the tools say it is loading (recoverable)", async () => {
    // Not started: loading has not begun.
    const runtime = new MochiRuntime(loadMochiConfig({ ...TEST_ENV, MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora }, repo), {
      logger: silentLogger,
    });
    const connection = await connectInProcess(createMochiServer(runtime.config, { runtime }));
    open.push({ connection, runtime });
    const error = errorOf((await call(connection, "complete_code", { prefix: "x" })).result);
    expect(error).toMatchObject({ code: "NOT_READY", recoverable: true });
    expect(error.message).toContain("loading has not started");
  });

  it("an adapter that does not fit the model fails the load with NOT_READY naming the file; the process lives on", async () => {
    const bad = join(model.dir, "wrong-arch.gguf");
    await writeTinyLoraGguf(bad, { defect: "wrong-architecture" });
    const { connection } = await serve({ MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: bad });
    const error = errorOf((await call(connection, "domain_query", { instruction: "What is this?" })).result);
    expect(error.code).toBe("NOT_READY");
    expect(error.message).toContain(bad);
    expect(error.recoverable).toBe(false);
  });
});

describe("L-memory-bound", () => {
  it("a model that would pass MOCHI_MEMORY_BOUND is refused with RESOURCE_EXHAUSTED", async () => {
    const { connection } = await serve({ MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora, MOCHI_MEMORY_BOUND: "1MB" });
    const error = errorOf((await call(connection, "domain_query", { instruction: "What is this?" })).result);
    expect(error.code).toBe("RESOURCE_EXHAUSTED");
    expect(error.message).toContain("memory bound");
  });
});
