/**
 * mochi-mcp's start-up reads GGUF headers through core's gguf subpath only (`@local-mcp/core/gguf`),
 * never through the `@local-mcp/core/inference` barrel, which brings the engine, the PEFT converter,
 * the remote backend and the embedder (37 modules). Before the engine is imported, the model's and
 * each adapter's headers are checked, so a model that cannot load fails having loaded only the
 * GGUF reader; and mochi://stats reads an adapter's facts through the same subpath. What the built
 * bin loaded is recorded by core's module-load observer (a bundle chunk counts as every source
 * esbuild put in it).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOAD_LOG_ENV, LOAD_OBSERVER_URL, loadedModules, readLoadLog, spawnStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ENV, writeTinyModelFiles, type TinyModelFiles } from "./helpers/tiny-model.js";

const BIN = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
let files: TinyModelFiles;
beforeAll(async () => {
  files = await writeTinyModelFiles();
});
afterAll(async () => {
  const { rmSync } = await import("node:fs");
  rmSync(files.dir, { recursive: true, force: true });
});

describe("mochi-mcp start-up", () => {
  it("checks the model's and adapter's GGUF headers through core's gguf subpath, not the inference barrel", async () => {
    const badModel = join(files.dir, "not-a-model.gguf");
    writeFileSync(badModel, "this is not a GGUF file, so the model cannot load\n");
    const record = join(files.dir, "loaded.txt");
    const server = await spawnStdioServer({
      command: process.execPath,
      args: ["--import", LOAD_OBSERVER_URL, BIN],
      env: {
        ...TEST_ENV,
        LOCAL_MCP_LOG_LEVEL: "info",
        MOCHI_MODEL: badModel,
        MOCHI_ADAPTER: files.lora,
        MOCHI_CATALOG: join(files.dir, "none.json"),
        [LOAD_LOG_ENV]: record,
      },
    });
    try {
      expect((await server.client.listTools()).tools.length).toBeGreaterThan(0);
      // The background load fails on the header; wait for its log line (generous bound, no fixed sleep).
      const until = Date.now() + 20_000;
      while (!server.stderr().includes("model load failed") && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(server.stderr()).toContain("model load failed");
      expect(server.stderr()).toContain("not-a-model.gguf");
      // mochi://stats reads the adapter's header for its facts (alpha, rank).
      const stats = await server.client.readResource({ uri: "mochi://stats" });
      const text = (stats.contents[0] as { text: string }).text;
      expect(text).toMatch(/"rank":\s*\d/);
    } finally {
      expect((await server.close()).code).toBe(0);
    }
    const { sources } = loadedModules(readLoadLog(record));
    const inference = [...sources].filter((source) => source.includes("inference/"));
    // The recorder saw the header reader: the check above is not vacuous.
    expect(inference.some((source) => /inference\/gguf\/reader\.[jt]s$/.test(source))).toBe(true);
    expect(inference.filter((source) => !/inference\/gguf\//.test(source))).toEqual([]);
  });
});
