// Benchmark (issue #7, part 8): Mochi.
//   1. Index throughput of `mochi index`, the built CLI in a fresh process per run (so Node's start
//      and loading the TypeScript compiler count), on a generated repository of 1,000 TypeScript
//      files of ~60 lines (target ≤ 10 s for 1,000 files) and on this repository; the in-process
//      split (scan = walk + read + parse, build = conventions, patterns, examples) is shown apart.
//      Every run of the same repository must give the same catalog version (determinism: checked).
//   2. complete_code through MCP: mochi-mcp over stdio with the real SDK client, on the tiny
//      generated GGUF with fill-in-the-middle tokens + the tiny LoRA, CPU, 1 thread, the default
//      5 s deadline. Latency p50/p95 of one greedy completion (max_alternatives 0, the default) and
//      of a call asking for 3 sampled alternatives; target p95 within the deadline
//      (L-response-time). Time to first token: tools do not stream, so it is a whole call for one
//      token — what a client waits before it sees anything.
//   3. Overhead vs direct node-llama-cpp on mochi's own workload: the same FIM prompts (prefix and
//      suffix cut from this repository's sources), the same model, LoRA, context and greedy
//      sampling on three layers — node-llama-cpp's sequence.evaluate (direct), core's
//      LlamaEngine.infill, and complete_code over MCP — interleaved prompt by prompt. Target for
//      the engine: ≥ 0.95× direct tokens/s, as in bench/inference.mjs (whose figure covers plain
//      completion on 32 prompts × 6 rounds; this one is the FIM path with a LoRA). The MCP layer
//      (stdio, JSON, zod, the boundary cut, the stop-string check) is reported in ms per call.
// Imports the built dist files: build first (`pnpm bench` does). Sizes: BENCH_MOCHI_FILES,
// BENCH_MOCHI_ROUNDS, BENCH_MOCHI_PROMPTS.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createLogger } from "../packages/core/dist/index.js";
import { LlamaEngine } from "../packages/core/dist/inference/index.js";
import { spawnStdioServer, writeTinyLlamaGguf, writeTinyLoraGguf } from "../packages/core/dist/testing/index.js";
import { buildCatalog } from "../apps/mochi-server/dist/domain/catalog/build-catalog.js";
import { scanRepository } from "../apps/mochi-server/dist/domain/catalog/scan-repository.js";

// node-llama-cpp is a dependency of the app: resolve the very copy its engine loads.
const requireFromCore = createRequire(new URL("../packages/core/package.json", import.meta.url));
const nlcEntry = requireFromCore.resolve("node-llama-cpp");
const nlc = await import(pathToFileURL(nlcEntry).href);
const nlcVersion = JSON.parse(readFileSync(join(nlcEntry, "../../package.json"), "utf8")).version;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "apps/mochi-server/dist/cli.js");
const MCP = join(ROOT, "apps/mochi-server/dist/mcp.js");
const FILES = Number(process.env.BENCH_MOCHI_FILES ?? 1000);
const ROUNDS = Number(process.env.BENCH_MOCHI_ROUNDS ?? 3);
const PROMPTS = Number(process.env.BENCH_MOCHI_PROMPTS ?? 20);
const INDEX_RUNS = 3;
const MAX_TOKENS = 64;
const CONTEXT_SIZE = 2048;
const DEADLINE_MS = 5000; // mochi's default MOCHI_DEADLINE_MS
const TARGETS = { indexSeconds: 10 * (FILES / 1000), engineRatio: 0.95 };

const benchStarted = performance.now();
const loadAtStart = loadavg()[0];
const scratch = mkdtempSync(join(tmpdir(), "bench-mochi-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true })); // also when a check throws

const now = () => performance.now();
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), n: s.length };
};
const median = (xs) => stats(xs).p50;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const fmtMs = (ms) => (ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`);
const fmtRate = (x) => Math.round(x).toLocaleString("en-US");
const verdict = (ok) => (ok ? "MET" : "MISSED");
const line = (label, text) => console.log(`  ${label.padEnd(60)} ${text}`);

// ---------------------------------------------------------------------------------------------
// 1. Index throughput.

/** One module of the generated repository: ~60 lines with the constructs the analyzer looks for. */
function moduleSource(i) {
  return `import { readFile } from "node:fs/promises";
import type { Logger } from "../logger.js";
import { AppError } from "../errors.js";

export interface Item${i}Options {
  path: string;
  retries?: number;
  logger?: Logger;
}

export const MAX_ITEMS_${i} = ${i};

/** Loads item ${i} from disk, retrying on failure. */
export async function loadItem${i}(options: Item${i}Options, signal?: AbortSignal): Promise<string> {
  let attempts = 0;
  for (;;) {
    try {
      return await readFile(options.path, { encoding: "utf8", signal });
    } catch (error) {
      attempts += 1;
      options.logger?.warn(\`item ${i}: attempt \${attempts} failed\`);
      if (attempts > (options.retries ?? 3)) throw new AppError("LOAD_FAILED", String(error));
    }
  }
}

export function createItem${i}Store(options: Item${i}Options) {
  const cache = new Map<string, string>();
  return {
    async get(key: string): Promise<string> {
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const value = await loadItem${i}(options);
      cache.set(key, value);
      return value;
    },
    clear(): void {
      cache.clear();
    },
  };
}

export class Item${i}Error extends AppError {
  constructor(message: string) {
    super("ITEM_${i}", message);
  }
}

export type Item${i}State = { kind: "empty" } | { kind: "loaded"; value: string } | { kind: "failed"; error: Item${i}Error };

export function describeItem${i}(state: Item${i}State): string {
  switch (state.kind) {
    case "empty":
      return "item ${i}: empty";
    case "loaded":
      return \`item ${i}: \${state.value.length} characters\`;
    case "failed":
      return \`item ${i}: \${state.error.message}\`;
  }
}
`;
}

/** A test of module i: vitest, in test/ next to src/. */
function testSource(i) {
  return `import { describe, expect, it } from "vitest";
import { createItem${i}Store, describeItem${i} } from "../src/item-${i}.js";

describe("item ${i}", () => {
  it("describes an empty item", () => {
    expect(describeItem${i}({ kind: "empty" })).toBe("item ${i}: empty");
  });

  it("starts with an empty cache", () => {
    const store = createItem${i}Store({ path: "/nonexistent" });
    store.clear();
    expect(store).toBeDefined();
  });
});
`;
}

/** `files` code files: nine modules to one test, ten per package. */
function writeGeneratedRepo(dir, files) {
  for (let i = 0; i < files; i++) {
    const pkg = join(dir, "packages", `pkg-${String(Math.floor(i / 100)).padStart(2, "0")}`);
    const isTest = i % 10 === 9;
    const path = isTest ? join(pkg, "test", `item-${i - 1}.test.ts`) : join(pkg, "src", `item-${i}.ts`);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, isTest ? testSource(i - 1) : moduleSource(i));
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "generated", type: "module" }));
}

/** Runs `mochi index` in a fresh process; returns its wall time and the catalog it wrote. */
function indexWithCli(repo, out) {
  const started = now();
  const result = spawnSync(process.execPath, [CLI, "index", repo, "--quiet", "--out", out], { encoding: "utf8" });
  const ms = now() - started;
  if (result.status !== 0) throw new Error(`mochi index ${repo} failed: ${result.stderr}`);
  const catalog = JSON.parse(readFileSync(out, "utf8"));
  return { ms, catalog };
}

/**
 * `runs` CLI runs (median), then one in-process run (the file cache is warm by then) split into
 * scan and build. Every run must give the same catalog version — unless `live` (this repository,
 * which others may be editing while the benchmark runs): then a difference is reported.
 */
async function indexFigures(label, repo, runs, { live = false } = {}) {
  const out = join(scratch, `${label}.catalog.json`);
  const cli = Array.from({ length: runs }, () => indexWithCli(repo, out));
  let started = now();
  const scan = await scanRepository(repo);
  const scanMs = now() - started;
  started = now();
  const catalog = buildCatalog(scan);
  const buildMs = now() - started;
  const versions = new Set([...cli.map((r) => r.catalog.version), catalog.version]);
  if (versions.size !== 1 && !live) throw new Error(`${label}: ${runs + 1} runs gave ${versions.size} catalog versions`);
  return { cliMs: median(cli.map((r) => r.ms)), scanMs, buildMs, catalog: cli[0].catalog, out, versions: versions.size };
}

const generated = join(scratch, "generated");
writeGeneratedRepo(generated, FILES);
const gen = await indexFigures("generated", generated, INDEX_RUNS);
if (gen.catalog.stats.files !== FILES) throw new Error(`indexed ${gen.catalog.stats.files} of ${FILES} generated files`);
const repoRuns = await indexFigures("this-repo", ROOT, 2, { live: true });

// ---------------------------------------------------------------------------------------------
// 2 and 3. The model: tiny FIM GGUF + tiny LoRA; the same files for every layer.
const modelPath = join(scratch, "tiny-fim.gguf");
const adapterPath = join(scratch, "tiny-lora.gguf");
await writeTinyLlamaGguf(modelPath, { fim: true });
await writeTinyLoraGguf(adapterPath);

/** FIM prompts: a cursor in the middle of a line of one of mochi's own sources, 600 characters before it, 200 after. */
function fimPrompts(count) {
  const dir = join(ROOT, "apps/mochi-server/src");
  const files = readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(".ts"))
    .sort();
  return Array.from({ length: count }, (_, i) => {
    const text = readFileSync(join(dir, files[(i * 7) % files.length]), "utf8");
    const lines = text.split("\n");
    const lineIndex = Math.floor(lines.length * (0.3 + (0.4 * ((i * 37) % 11)) / 10));
    const offset = lines.slice(0, lineIndex).join("\n").length + 1 + Math.floor((lines[lineIndex] ?? "").length / 2);
    return { prefix: text.slice(Math.max(0, offset - 600), offset), suffix: text.slice(offset, offset + 200) };
  });
}
const prompts = fimPrompts(PROMPTS);

const logger = createLogger({ name: "bench", level: "warn" });
const engine = new LlamaEngine(
  {
    modelPath,
    adapters: [{ path: adapterPath, scale: 1 }],
    threads: 1,
    contextSize: CONTEXT_SIZE,
    sequences: 1,
    gpu: "cpu",
    deadlineMs: 60_000,
  },
  { logger },
);
await engine.load();

// Direct: node-llama-cpp alone, same context settings and the same LoRA.
const llama = await nlc.getLlama({
  build: "never",
  gpu: false,
  logLevel: nlc.LlamaLogLevel.error, // llama.cpp's log settings are process-wide (see bench/inference.mjs)
  logger: (_level, message) => process.stderr.write(message.endsWith("\n") ? message : `${message}\n`),
});
const model = await llama.loadModel({ modelPath });
const context = await model.createContext({
  contextSize: CONTEXT_SIZE,
  sequences: 1,
  threads: 1,
  flashAttention: false,
  lora: { adapters: [{ filePath: adapterPath, scale: 1 }] },
});
const sequence = context.getSequence();
const bos = model.tokens.bos !== null && model.tokens.shouldPrependBosToken ? [model.tokens.bos] : [];
const fim = model.tokens.infill;
if (fim.prefix === null || fim.suffix === null || fim.middle === null) throw new Error("the tiny model should have FIM tokens");
// Each part without SentencePiece's leading space, as LlamaEngine and LlamaCompletion tokenize them.
const part = (text) => model.tokenize(text, false, "trimLeadingSpace");
const fimTokens = (p) => [...bos, fim.prefix, ...part(p.prefix), fim.suffix, ...part(p.suffix), fim.middle];

// MCP: mochi-mcp as a client launches it.
const catalogPath = join(scratch, "mcp.catalog.json");
writeFileSync(catalogPath, readFileSync(repoRuns.out));
const mcpStarted = now();
const server = await spawnStdioServer({
  command: process.execPath,
  args: [MCP],
  env: {
    MOCHI_MODEL: modelPath,
    MOCHI_ADAPTER: adapterPath,
    MOCHI_CATALOG: catalogPath,
    MOCHI_GPU: "cpu",
    MOCHI_THREADS: "1",
    MOCHI_CONTEXT_SIZE: String(CONTEXT_SIZE),
    MOCHI_DEADLINE_MS: String(DEADLINE_MS),
    LOCAL_MCP_LOG_LEVEL: "info",
  },
  readyPattern: /ready on stdio[\s\S]*model ready|model ready[\s\S]*ready on stdio/,
  readyTimeoutMs: 60_000,
});
const mcpReadyMs = now() - mcpStarted;

async function completeCode(args) {
  const result = await server.client.callTool({
    name: "complete_code",
    arguments: { language: "typescript", response_level: "full", ...args },
  });
  if (result.isError) throw new Error(`complete_code failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

// Each layer returns the tokens it generated; ms is the whole call as its caller sees it.
const layers = {
  direct: async (p, maxTokens = MAX_TOKENS) => {
    await sequence.clearHistory();
    const tokens = [];
    for await (const token of sequence.evaluate(fimTokens(p), { temperature: 0 })) {
      tokens.push(token);
      if (tokens.length >= maxTokens) break;
    }
    return { count: tokens.length, text: model.detokenize(tokens) };
  },
  engine: async (p, maxTokens = MAX_TOKENS) => {
    const r = await engine.infill(p.prefix, p.suffix, { maxTokens, temperature: 0 });
    if (r.mode !== "infill") throw new Error(`the engine ran ${r.mode}`);
    return { count: r.tokensOut, text: r.text };
  },
  mcp: async (p, maxTokens = MAX_TOKENS) => {
    const r = await completeCode({ prefix: p.prefix, suffix: p.suffix, max_tokens: maxTokens, max_alternatives: 0 });
    if (r.mode !== "infill") throw new Error(`complete_code ran ${r.mode}`);
    return { count: r.candidates[0].tokens_generated };
  },
};
const names = Object.keys(layers);

// Warm-up, and the check that direct and engine generate the very same tokens; complete_code also
// stops at "\n\n\n" (its stop string), so it may generate fewer — only those prompts are compared.
const warm = Object.fromEntries(names.map((name) => [name, []]));
for (const p of prompts) for (const name of names) warm[name].push(await layers[name](p));
for (let i = 0; i < prompts.length; i++) {
  if (warm.direct[i].text !== warm.engine[i].text || warm.direct[i].count !== warm.engine[i].count) {
    throw new Error(`engine and direct differ on prompt ${i}: ${warm.engine[i].count} vs ${warm.direct[i].count} tokens`);
  }
}
const sameWork = prompts.map((_, i) => warm.mcp[i].count === warm.engine[i].count);

const times = Object.fromEntries(names.map((name) => [name, prompts.map(() => [])]));
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < prompts.length; i++) {
    const shift = (round * prompts.length + i) % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
      const started = now();
      const got = await layers[name](prompts[i]);
      times[name][i].push(now() - started);
      if (got.count !== warm[name][i].count) throw new Error(`${name} generated ${got.count} tokens, then ${warm[name][i].count}`);
    }
  }
}
// Other work on this shared machine only adds time: rates sum each prompt's best time.
const tokensOf = (name, only = () => true) => sum(warm[name].filter((_, i) => only(i)).map((r) => r.count));
const bestMs = (name, only = () => true) => sum(times[name].filter((_, i) => only(i)).map((ms) => Math.min(...ms)));
const rate = (name, only) => tokensOf(name, only) / (bestMs(name, only) / 1000);
const engineRatio = rate("engine") / rate("direct");
const medianEngineRatio = tokensOf("engine") / sum(times.engine.map(median)) / (tokensOf("direct") / sum(times.direct.map(median)));
const compared = (i) => sameWork[i];
const comparedCount = sameWork.filter(Boolean).length;
const mcpPerCallMs = comparedCount === 0 ? NaN : (bestMs("mcp", compared) - bestMs("engine", compared)) / comparedCount;
const single = stats(times.mcp.flat());

// A call asking for 3 sampled alternatives besides the greedy one (each only while it fits the deadline).
const defaultMs = [];
let alternativesReturned = 0;
for (const p of prompts) {
  const started = now();
  const r = await completeCode({ prefix: p.prefix, suffix: p.suffix, max_tokens: MAX_TOKENS, max_alternatives: 3 });
  defaultMs.push(now() - started);
  alternativesReturned += r.alternatives.length;
}
const defaults = stats(defaultMs);

// Time to first token: a whole call for 1 token on each layer, interleaved.
const ttft = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < 2; round++) {
  for (let i = 0; i < prompts.length; i++) {
    for (const name of i % 2 ? names : [...names].reverse()) {
      const started = now();
      await layers[name](prompts[i], 1);
      ttft[name].push(now() - started);
    }
  }
}

const statsResource = JSON.parse((await server.client.readResource({ uri: "mochi://stats" })).contents[0].text);
server.assertCleanStdout();
const exit = await server.close();
if (exit.code !== 0) throw new Error(`mochi-mcp exited with ${exit.code}`);
await engine.dispose();
await context.dispose();
await model.dispose();
await llama.dispose();

// ---------------------------------------------------------------------------------------------
const s = (ms) => (ms / 1000).toFixed(2);
console.log(
  `mochi: Node ${process.version}, node-llama-cpp ${nlcVersion}, CPU, 1 thread; ${availableParallelism()} CPUs, ` +
    `load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end (other work on the machine slows every figure)`,
);
console.log(
  `index throughput (\`mochi index\` CLI, a fresh process per run, median of ${INDEX_RUNS}; generated repository: same catalog version every run, CLI and in process: checked)`,
);
const genOk = gen.cliMs / 1000 <= TARGETS.indexSeconds;
line(
  `generated: ${FILES} TS files, ${gen.catalog.stats.lines.toLocaleString("en-US")} lines`,
  `${s(gen.cliMs)} s, ${fmtRate(FILES / (gen.cliMs / 1000))} files/s (target ≤ ${TARGETS.indexSeconds} s) ${verdict(genOk)}`,
);
line("  in process (no Node start): scan + build", `${s(gen.scanMs)} s + ${s(gen.buildMs)} s (scan = walk, read, parse)`);
line(
  `  catalog: ${gen.catalog.patterns.length} patterns, ${gen.catalog.examples.length} examples`,
  `${gen.catalog.patterns.map((p) => `${p.name} ${p.occurrences}`).join(", ")}`,
);
const repoStats = repoRuns.catalog.stats;
line(
  `this repository: ${repoStats.files} files, ${repoStats.lines.toLocaleString("en-US")} lines`,
  `${s(repoRuns.cliMs)} s, ${fmtRate(repoStats.files / (repoRuns.cliMs / 1000))} files/s (median of 2)` +
    (repoRuns.versions === 1
      ? "; same catalog version: checked"
      : `; ${repoRuns.versions} versions: the working tree changed during the runs`),
);
line("  in process: scan + build", `${s(repoRuns.scanMs)} s + ${s(repoRuns.buildMs)} s`);

console.log(
  `complete_code through MCP (mochi-mcp over stdio, tiny GGUF with FIM tokens + tiny LoRA, context ${CONTEXT_SIZE}; ` +
    `${PROMPTS} FIM prompts of 600 + 200 characters from apps/mochi-server/src; ≤ ${MAX_TOKENS} tokens, greedy)`,
);
line("server start to model ready", fmtMs(mcpReadyMs));
line(
  `one completion (max_alternatives 0), ${single.n} calls`,
  `p50 ${fmtMs(single.p50)}, p95 ${fmtMs(single.p95)} (target p95 ≤ ${fmtMs(DEADLINE_MS)} deadline) ${verdict(single.p95 <= DEADLINE_MS)}`,
);
line(
  `asking for 3 alternatives (greedy + 3 sampled), ${defaults.n} calls`,
  `p50 ${fmtMs(defaults.p50)}, p95 ${fmtMs(defaults.p95)} (target p95 ≤ ${fmtMs(DEADLINE_MS)} deadline) ${verdict(defaults.p95 <= DEADLINE_MS)}; ` +
    `${(alternativesReturned / prompts.length).toFixed(1)} distinct alternatives a call`,
);
line(
  `time to first token (a 1-token call), median of ${ttft.mcp.length}`,
  `MCP ${fmtMs(median(ttft.mcp))}, engine ${fmtMs(median(ttft.engine))}, direct ${fmtMs(median(ttft.direct))}`,
);
const inference = statsResource.inference.complete_code;
line(
  "what mochi://stats reports for complete_code",
  `p50 ${fmtMs(inference.p50_ms)}, p95 ${fmtMs(inference.p95_ms)} over all ${inference.count} calls above (generation time only)`,
);

console.log(
  `overhead vs direct node-llama-cpp (same FIM tokens + LoRA, ${ROUNDS} rounds interleaved, best time per prompt; ` +
    `direct and engine generate the same tokens: checked; ${tokensOf("direct")} tokens a round)`,
);
line("direct: sequence.evaluate", `${fmtRate(rate("direct"))} tokens/s`);
line("core: LlamaEngine.infill", `${fmtRate(rate("engine"))} tokens/s`);
line("mochi: complete_code over MCP", `${fmtRate(rate("mcp"))} tokens/s (${tokensOf("mcp")} tokens a round)`);
line(
  "engine overhead ratio",
  `${engineRatio.toFixed(3)}× of direct (target ≥ ${TARGETS.engineRatio.toFixed(2)}×) ${verdict(engineRatio >= TARGETS.engineRatio)}  [from medians ${medianEngineRatio.toFixed(3)}×]`,
);
line(
  `MCP + tool layer over the engine, ${comparedCount}/${prompts.length} prompts with equal tokens`,
  `+${fmtMs(mcpPerCallMs)} per call (no target; stdio, JSON, zod, stop-string check, boundary cut)`,
);
console.log(`  (whole benchmark ${((now() - benchStarted) / 1000).toFixed(1)} s)`);
