import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { silentLogger } from "@local-mcp/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StatsStore, type StatsView } from "../src/domain/stats/stats-store.js";
import { APP_DIR, PROJECT, configFor, connect, tempDir } from "./helpers.js";

let state: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  state = await tempDir("local-model-stats-");
});
afterEach(async () => {
  await state.remove();
});

async function readStats(server: Awaited<ReturnType<typeof connect>>): Promise<{ text: string; view: StatsView }> {
  const result = await server.client.readResource({ uri: "local://stats" });
  const content = result.contents[0] as { text: string };
  return { text: content.text, view: JSON.parse(content.text) as StatsView };
}

describe("local://stats", () => {
  it("counts an answer that cost more than its input as tokens_over, not as a negative saving (the totals add only savings)", async () => {
    const config = configFor({ LOCAL_MODEL_ROOTS: PROJECT, LOCAL_MODEL_STATE_DIR: state.path });
    const server = await connect(config);
    try {
      // A one-line file's exports: the structured answer is longer than the file itself.
      const costly = await server.call("local_extract", { task_type: "exports", files: ["src/stores/index.ts"], response_level: "full" });
      const stats = costly.body.stats as { input_tokens_estimate: number; response_tokens_estimate: number };
      expect(stats.response_tokens_estimate).toBeGreaterThan(stats.input_tokens_estimate);
      expect(costly.body.tokens_saved).toBe(0);
      expect(costly.body.tokens_over).toBe(stats.response_tokens_estimate - stats.input_tokens_estimate);
      const saving = await server.call("local_extract", {
        task_type: "frontmatter",
        files: [".planning/phases/01-data-foundation/01-01-PLAN.md"],
      });
      expect(saving.body.tokens_saved).toBeGreaterThan(0);
      const { view } = await readStats(server);
      expect(view.totals.tokens_saved).toBe(saving.body.tokens_saved);
      expect(view.totals.tokens_over).toBe(costly.body.tokens_over);
      expect(view.tools.local_extract?.by_engine.deterministic).toEqual({
        calls: 2,
        tokens_used: 0,
        tokens_saved: saving.body.tokens_saved,
        tokens_over: costly.body.tokens_over,
      });
    } finally {
      await server.close();
    }
  });

  it("counts calls per tool and engine, tokens saved, errors and latency, and keeps them across a restart", async () => {
    const config = configFor({ LOCAL_MODEL_ROOTS: PROJECT, LOCAL_MODEL_STATE_DIR: state.path });
    const first = await connect(config);
    const a = await first.call("local_extract", { task_type: "frontmatter", files: [".planning/phases/01-data-foundation/01-01-PLAN.md"] });
    const b = await first.call("local_extract", { task_type: "exports", files: ["src/stores/familyStore.ts"] });
    const failed = await first.call("local_extract", { task_type: "frontmatter", files: ["nope.md"] });
    expect(failed.isError).toBe(true);
    await first.close();

    const second = await connect(config);
    try {
      const { text, view } = await readStats(second);
      const extract = view.tools.local_extract;
      const saved = (a.body.tokens_saved as number) + (b.body.tokens_saved as number);
      const over = ((a.body.tokens_over as number | undefined) ?? 0) + ((b.body.tokens_over as number | undefined) ?? 0);
      expect(extract).toMatchObject({
        calls: 3,
        errors: 1,
        errors_by_code: { NOT_FOUND: 1 },
        by_engine: { deterministic: { calls: 2, tokens_used: 0, tokens_saved: saved, tokens_over: over } },
        tokens_used: 0,
        tokens_saved: saved,
        tokens_over: over,
      });
      expect(extract?.latency_ms.samples).toBe(3);
      expect(extract?.latency_ms.p95).toBeGreaterThanOrEqual(extract?.latency_ms.p50 ?? Infinity);
      expect(view.totals).toEqual({ calls: 3, errors: 1, tokens_used: 0, tokens_saved: saved, tokens_over: over });
      expect(view.persisted_in).toBe(join(state.path, "stats.json"));
      // The same bytes until something changes (L-idempotent-resource) …
      expect((await readStats(second)).text).toBe(text);
      // … and new calls add up on top of the persisted numbers.
      await second.call("local_git", { task_type: "status" });
      await second.created.definition.onClose?.();
      const after = (await readStats(second)).view;
      expect(after.tools.local_extract?.calls).toBe(3);
      expect(after.tools.local_git?.calls).toBe(1);
      expect(after.totals.calls).toBe(4);
    } finally {
      await second.close();
    }
  });

  it("records nothing when token tracking is off", async () => {
    const server = await connect(
      configFor({ LOCAL_MODEL_ROOTS: PROJECT, LOCAL_MODEL_STATE_DIR: state.path, LOCAL_MODEL_TOKEN_TRACKING: "false" }),
    );
    await server.call("local_extract", { task_type: "structure", files: ["README.md"] });
    await server.close();
    expect(existsSync(join(state.path, "stats.json"))).toBe(false);
  });
});

describe("StatsStore", () => {
  it("computes p50 and p95 from the recorded latencies", async () => {
    const store = new StatsStore({ stateDir: state.path, logger: silentLogger });
    for (let ms = 1; ms <= 100; ms++)
      store.record({ tool: "local_git", latencyMs: ms, result: { engine: "deterministic", tokensUsed: 0, tokensSaved: 1, tokensOver: 0 } });
    await store.flush();
    const view = await new StatsStore({ stateDir: state.path, logger: silentLogger }).view();
    expect(view.tools.local_git?.latency_ms).toEqual({ p50: 50, p95: 95, samples: 100 });
    expect(view.tools.local_git?.tokens_saved).toBe(100);
  });

  it("reads a file written before tokens_over: a negative saving sum becomes tokens over", async () => {
    const legacy = {
      version: 1,
      since: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
      tools: {
        local_git: {
          calls: 2,
          engines: { deterministic: { calls: 2, tokens_used: 0, tokens_saved: -247 } },
          errors: {},
          latencies_ms: [1, 2],
        },
        local_extract: {
          calls: 1,
          engines: { deterministic: { calls: 1, tokens_used: 0, tokens_saved: 40 } },
          errors: {},
          latencies_ms: [1],
        },
      },
    };
    await writeFile(join(state.path, "stats.json"), JSON.stringify(legacy));
    const view = await new StatsStore({ stateDir: state.path, logger: silentLogger }).view();
    expect(view.tools.local_git?.by_engine.deterministic).toEqual({ calls: 2, tokens_used: 0, tokens_saved: 0, tokens_over: 247 });
    expect(view.totals).toEqual({ calls: 3, errors: 0, tokens_used: 0, tokens_saved: 40, tokens_over: 247 });
  });

  it("shows a call whose merge into the file is still in flight", async () => {
    const store = new StatsStore({ stateDir: state.path, logger: silentLogger });
    store.record({ tool: "local_git", latencyMs: 1, result: { engine: "deterministic", tokensUsed: 0, tokensSaved: 5, tokensOver: 0 } });
    // record() has started the merge: the call is no longer pending and not yet in the file.
    expect((await store.view()).totals).toEqual({ calls: 1, errors: 0, tokens_used: 0, tokens_saved: 5, tokens_over: 0 });
  });

  it("adds up what concurrent processes record, without losing or corrupting anything", async () => {
    const module = join(APP_DIR, "dist/domain/stats/stats-store.js");
    expect(existsSync(module), "build the app first (pnpm --filter @local-mcp/local-model-server... build)").toBe(true);
    const script = `
      const { StatsStore } = await import(${JSON.stringify(pathToFileURL(module).href)});
      const noop = () => {};
      const logger = { debug: noop, info: noop, warn: noop, error: noop, child: () => logger };
      const store = new StatsStore({ stateDir: process.argv[1], logger });
      for (let i = 0; i < 25; i++) {
        store.record({ tool: "local_verify", latencyMs: i, result: { engine: i % 5 === 0 ? "model" : "deterministic", tokensUsed: i % 5 === 0 ? 7 : 0, tokensSaved: 10, tokensOver: 0 } });
        await store.flush();
      }`;
    const run = () =>
      new Promise<void>((resolve, reject) =>
        execFile(process.execPath, ["--input-type=module", "-e", script, state.path], (error) => (error ? reject(error) : resolve())),
      );
    await Promise.all([run(), run(), run(), run()]);
    const file = JSON.parse(await readFile(join(state.path, "stats.json"), "utf8")) as {
      tools: Record<string, { calls: number; latencies_ms: number[] }>;
    };
    expect(file.tools.local_verify?.calls).toBe(100);
    expect(file.tools.local_verify?.latencies_ms).toHaveLength(100);
    const view = await new StatsStore({ stateDir: state.path, logger: silentLogger }).view();
    expect(view.tools.local_verify).toMatchObject({
      calls: 100,
      by_engine: {
        model: { calls: 20, tokens_used: 140, tokens_saved: 200 },
        deterministic: { calls: 80, tokens_used: 0, tokens_saved: 800 },
      },
      tokens_saved: 1000,
    });
    expect(existsSync(join(state.path, "stats.json.lock"))).toBe(false);
  });

  it("takes over an abandoned lock file of an older version once it is stale", async () => {
    const lock = join(state.path, "stats.json.lock");
    await writeFile(lock, "99999\n");
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const store = new StatsStore({ stateDir: state.path, logger: silentLogger });
    store.record({ tool: "local_extract", latencyMs: 1, errorCode: "TIMEOUT" });
    await store.flush();
    expect((await store.view()).tools.local_extract).toMatchObject({ calls: 1, errors: 1, errors_by_code: { TIMEOUT: 1 } });
    expect(existsSync(lock)).toBe(false);
  });

  describe("with the lock held by another process", () => {
    // Takes stats.json.lock through core's lock (what StatsStore uses) and keeps it.
    const HOLDER = `
      const { acquireDirectoryLock } = await import("@local-mcp/core");
      const lock = await acquireDirectoryLock(process.argv[1]);
      process.stdout.write(JSON.stringify(lock.holder) + "\\n");
      setInterval(() => {}, 1000);`;
    let holder: ReturnType<typeof spawn> | undefined;
    afterEach(() => {
      if (holder?.exitCode === null && holder.signalCode === null) holder.kill("SIGKILL");
    });

    async function startHolder(): Promise<{ pid: number; exited: Promise<void> }> {
      const child = spawn(process.execPath, ["--input-type=module", "-e", HOLDER, join(state.path, "stats.json.lock")], {
        cwd: APP_DIR,
        stdio: ["ignore", "pipe", "pipe"],
      });
      holder = child;
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      const pid = await new Promise<number>((resolve, reject) => {
        child.stdout?.on("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { pid: number }).pid));
        child.once("exit", (code) => reject(new Error(`the holder exited (${code}) before taking the lock: ${stderr}`)));
      });
      return { pid, exited };
    }

    it("does not take it over while the holder lives, and takes it at once when the holder is killed", async () => {
      const { pid, exited } = await startHolder();
      expect(pid).toBe(holder?.pid);
      const store = new StatsStore({ stateDir: state.path, logger: silentLogger });
      store.record({ tool: "local_git", latencyMs: 1, result: { engine: "deterministic", tokensUsed: 0, tokensSaved: 3, tokensOver: 0 } });
      // The merge record() started waits: the holder is alive (its lock is fresh, too).
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(existsSync(join(state.path, "stats.json"))).toBe(false);
      const [record] = await readdir(join(state.path, "stats.json.lock"));
      expect(JSON.parse(await readFile(join(state.path, "stats.json.lock", record ?? ""), "utf8"))).toMatchObject({ pid });

      holder?.kill("SIGKILL");
      await exited;
      const killed = Date.now();
      await store.flush();
      expect(Date.now() - killed, "the merge waited for the lock to go stale").toBeLessThan(2_000);
      const file = JSON.parse(await readFile(join(state.path, "stats.json"), "utf8")) as { tools: Record<string, { calls: number }> };
      expect(file.tools.local_git?.calls).toBe(1);
    });

    it("takes it over at once after the holder is killed with -9", async () => {
      const { exited } = await startHolder();
      holder?.kill("SIGKILL");
      await exited;
      expect(existsSync(join(state.path, "stats.json.lock"))).toBe(true);
      const store = new StatsStore({ stateDir: state.path, logger: silentLogger });
      const started = Date.now();
      store.record({ tool: "local_git", latencyMs: 1, result: { engine: "deterministic", tokensUsed: 0, tokensSaved: 3, tokensOver: 0 } });
      await store.flush();
      expect(Date.now() - started, "the merge waited for the lock to go stale").toBeLessThan(2_000);
      const file = JSON.parse(await readFile(join(state.path, "stats.json"), "utf8")) as { tools: Record<string, { calls: number }> };
      expect(file.tools.local_git?.calls).toBe(1);
      expect(existsSync(join(state.path, "stats.json.lock"))).toBe(false);
    });
  });
});
