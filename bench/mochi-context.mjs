// Benchmark (issue 18 items 3 and 8): what the repository context costs complete_code.
//   1. Retrieval alone: completionContext (apps/mochi-server/src/domain/context/repository-context.ts)
//      on the catalog of apps/mochi-server, for cursors in mochi's own sources (the whole file up to
//      the cursor as the prefix), and on a 200 kB prefix of hostile names: p50/p95/max per call.
//   2. complete_code p50 with context against without, side by side through the same SDK client over
//      stdio: two mochi-mcp servers on the same catalog, tiny generated FIM model + LoRA, CPU, 1
//      thread, context 2048, scope "line", MOCHI_CONTEXT on and off; calls interleaved, the order
//      alternating. Target: the overhead (p50 on − p50 off) ≤ 20 ms. The end-to-end overhead includes
//      evaluating the context's tokens in the prompt (the tiny model's vocabulary is byte-level, so
//      a snippet costs about a token a character there).
//   3. Typing through one file (30 calls, the cursor 1–8 characters further each time): p50 with
//      and without context, how often the context changed, and the prompt tokens the engine reused.
// Imports the built dist files: build first (`pnpm bench` does). Size: BENCH_CONTEXT_PROMPTS (20),
// BENCH_CONTEXT_ROUNDS (3).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnStdioServer, writeTinyLlamaGguf, writeTinyLoraGguf } from "../packages/core/dist/testing/index.js";
import { buildCatalog, serializeCatalog } from "../apps/mochi-server/dist/domain/catalog/build-catalog.js";
import { scanRepository } from "../apps/mochi-server/dist/domain/catalog/scan-repository.js";
import { completionContext } from "../apps/mochi-server/dist/domain/context/repository-context.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const APP = join(ROOT, "apps/mochi-server");
const MCP = join(APP, "dist/mcp.js");
const PROMPTS = Number(process.env.BENCH_CONTEXT_PROMPTS ?? 20);
const ROUNDS = Number(process.env.BENCH_CONTEXT_ROUNDS ?? 3);
const CONTEXT_SIZE = 2048;
const TARGET_MS = 20;

const loadAtStart = loadavg()[0];
const scratch = mkdtempSync(join(tmpdir(), "bench-mochi-context-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
const now = () => performance.now();
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: s[s.length - 1], n: s.length };
};
const fmtMs = (ms) => (Math.abs(ms) >= 100 ? `${ms.toFixed(0)} ms` : Math.abs(ms) >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`);
const line = (label, text) => console.log(`  ${label.padEnd(62)} ${text}`);

// The catalog of mochi's own app (its sources, tests and fixtures), as `mochi index` writes it.
const indexStarted = now();
const catalog = buildCatalog(await scanRepository(APP));
const catalogPath = join(scratch, "catalog.json");
writeFileSync(catalogPath, serializeCatalog(catalog));
const indexMs = now() - indexStarted;

const sources = (() => {
  const dir = join(APP, "src");
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => readFileSync(join(dir, f), "utf8"));
})();
/** A cursor in the middle of a line of one of mochi's sources: the file up to it, 200 characters after it. */
const prompts = Array.from({ length: PROMPTS }, (_, i) => {
  const text = sources[(i * 7) % sources.length];
  const lines = text.split("\n");
  const lineIndex = Math.floor(lines.length * (0.3 + (0.4 * ((i * 37) % 11)) / 10));
  const offset = lines.slice(0, lineIndex).join("\n").length + 1 + Math.floor((lines[lineIndex] ?? "").length / 2);
  return { prefix: text.slice(0, offset), suffix: text.slice(offset, offset + 200) };
});

// ---------------------------------------------------------------------------------------------
// 1. Retrieval alone, in this process.
const settings = { enabled: true, contextSize: CONTEXT_SIZE };
for (const p of prompts) await completionContext(catalog, { prefix: p.prefix, language: "typescript" }, settings);
const retrievalMs = [];
const chosen = [];
for (let round = 0; round < 5; round++) {
  for (const p of prompts) {
    const started = now();
    const snippets = await completionContext(catalog, { prefix: p.prefix, language: "typescript" }, settings);
    retrievalMs.push(now() - started);
    if (round === 0) chosen.push(snippets);
  }
}
const hostile = `${"__proto__ constructor toString hasOwnProperty prototype valueOf x.__proto__ = {};\n".repeat(2_500)}completionContext(`;
const hostileMs = [];
for (let i = 0; i < 10; i++) {
  const started = now();
  await completionContext(catalog, { prefix: hostile }, settings);
  hostileMs.push(now() - started);
}

// ---------------------------------------------------------------------------------------------
// 2. complete_code with and without context, through the same client.
const modelPath = join(scratch, "tiny-fim.gguf");
const adapterPath = join(scratch, "tiny-lora.gguf");
await writeTinyLlamaGguf(modelPath, { fim: true });
await writeTinyLoraGguf(adapterPath);
const common = {
  MOCHI_GPU: "cpu",
  MOCHI_THREADS: "1",
  MOCHI_CONTEXT_SIZE: String(CONTEXT_SIZE),
  MOCHI_CATALOG: catalogPath,
  MOCHI_MODEL: modelPath,
  MOCHI_ADAPTER: adapterPath,
  MOCHI_DEADLINE_MS: "30000",
  LOCAL_MCP_LOG_LEVEL: "info",
};
const spawn = (context) =>
  spawnStdioServer({
    command: process.execPath,
    args: [MCP],
    cwd: scratch,
    env: { ...common, MOCHI_CONTEXT: context },
    readyPattern: /ready on stdio[\s\S]*model ready|model ready[\s\S]*ready on stdio/,
    readyTimeoutMs: 60_000,
  });
const servers = { on: await spawn("on"), off: await spawn("off") };
async function complete(name, p) {
  const result = await servers[name].client.callTool({
    name: "complete_code",
    arguments: { ...p, language: "typescript", scope: "line", response_level: "full" },
  });
  if (result.isError) throw new Error(`complete_code failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}
for (const p of prompts) for (const name of ["on", "off"]) await complete(name, p);
const wall = { on: [], off: [] };
const generated = { on: [], off: [], typingOn: [], typingOff: [] };
const listed = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, p] of prompts.entries()) {
    const order = (round + i) % 2 === 0 ? ["on", "off"] : ["off", "on"];
    for (const name of order) {
      const started = now();
      const r = await complete(name, p);
      wall[name].push(now() - started);
      generated[name].push(r.candidates[0].tokens_generated);
      if (name === "on" && round === 0) listed.push(r.context);
    }
  }
}
// Typing through one file: the cursor moves 1–8 characters forward each call, as in mochi-latency's
// reuse measurement; the context stays the same unless a snippet comes or goes, so the cached
// prompt is kept.
const typed = sources.find((t) => t.includes("completeAt(")) ?? sources[0];
const typing = { on: [], off: [] };
const reused = { on: [], off: [] };
const contextChanges = { on: 0 };
let lastContext;
let cursor = Math.floor(typed.length * 0.4);
for (let i = 0; i < 30; i++) {
  cursor += 1 + ((i * 5) % 8);
  const p = { prefix: typed.slice(0, cursor), suffix: typed.slice(cursor, cursor + 200) };
  for (const name of i % 2 === 0 ? ["on", "off"] : ["off", "on"]) {
    const started = now();
    const r = await complete(name, p);
    typing[name].push(now() - started);
    generated[name === "on" ? "typingOn" : "typingOff"].push(r.candidates[0].tokens_generated);
    reused[name].push(r.candidates[0].tokens_reused ?? 0);
    if (name === "on") {
      const key = JSON.stringify(r.context);
      if (lastContext !== undefined && key !== lastContext) contextChanges.on += 1;
      lastContext = key;
    }
  }
}
await servers.on.close();
await servers.off.close();

// ---------------------------------------------------------------------------------------------
const r = stats(retrievalMs);
const h = stats(hostileMs);
const on = stats(wall.on);
const off = stats(wall.off);
const overhead = on.p50 - off.p50;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const symbols = catalog.symbols?.length ?? 0;
console.log(
  `mochi context: Node ${process.version}, CPU, 1 thread; ${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(1)} at start, ` +
    `${loadavg()[0].toFixed(1)} at end (other work on the machine slows every figure)`,
);
line("catalog of apps/mochi-server", `${catalog.stats.files} files, ${symbols} symbols, built in ${fmtMs(indexMs)}`);
line(
  `retrieval alone, ${PROMPTS} cursors × 5 (whole file before the cursor)`,
  `p50 ${fmtMs(r.p50)}, p95 ${fmtMs(r.p95)}, max ${fmtMs(r.max)}`,
);
line("retrieval alone, 200 kB prefix of __proto__-like names", `p50 ${fmtMs(h.p50)}, max ${fmtMs(h.max)}`);
line(
  "snippets a cursor got (mean count, mean tokens counted)",
  `${mean(chosen.map((c) => c.length)).toFixed(1)} snippets, ${mean(chosen.map((c) => c.reduce((s, x) => s + x.tokens, 0))).toFixed(0)} tokens (budget ${Math.min(1024, Math.floor(CONTEXT_SIZE / 8))})`,
);
line(`complete_code scope line, ${on.n} calls each, context off`, `p50 ${fmtMs(off.p50)}, p95 ${fmtMs(off.p95)}`);
line(`complete_code scope line, ${on.n} calls each, context on`, `p50 ${fmtMs(on.p50)}, p95 ${fmtMs(on.p95)}`);
line(
  `overhead of the context, p50 on − off (target ≤ ${TARGET_MS} ms)`,
  `${fmtMs(overhead)} ${overhead <= TARGET_MS ? "(within the target)" : "(over the target)"}; retrieval's share p50 ${fmtMs(r.p50)}`,
);
const tOn = stats(typing.on);
const tOff = stats(typing.off);
line(
  "typing through one file, 30 calls: p50 off / on",
  `${fmtMs(tOff.p50)} / ${fmtMs(tOn.p50)} (${fmtMs(tOn.p50 - tOff.p50)}); context changed ${contextChanges.on} times`,
);
line(
  "tokens generated a call, mean off / on: across files; typing",
  `${mean(generated.off).toFixed(1)} / ${mean(generated.on).toFixed(1)}; ${mean(generated.typingOff).toFixed(1)} / ${mean(generated.typingOn).toFixed(1)} (the tiny random model writes other lines after other prompts)`,
);
line("typing through one file: mean prompt tokens reused off / on", `${mean(reused.off).toFixed(0)} / ${mean(reused.on).toFixed(0)}`);
line(
  "snippets listed at full by complete_code (mean count)",
  `${mean(listed.map((c) => (c ?? []).length)).toFixed(1)}; with symbols from other files on ${listed.filter((c) => (c ?? []).some((s) => s.symbol !== "conventions")).length} of ${listed.length} cursors`,
);
