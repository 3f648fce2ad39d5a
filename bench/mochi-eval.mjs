// Benchmark (issue 18 item 8): mochi eval's throughput, in cases a second, beside a reference.
//   The cases: `mochi eval`'s next-line and fill-in-the-middle cases (buildEvalCases) cut from
//   apps/mochi-server/src (the last 1,000 characters before the cursor, the first 400 after it), on the tiny generated GGUF with FIM tokens + the tiny LoRA, CPU, 1 thread.
//   Three ways through the same cases, interleaved round by round:
//     - eval: runEvalCases as `mochi eval` runs them — repository context from the catalog,
//       completeAt (complete_code's path: prompt window, scope stops, boundary cut) and the
//       held-out cross-entropy (the expected text's log-probabilities from the logits);
//     - eval without cross-entropy: the same, no scoring;
//     - reference: the same number of raw LlamaEngine generations — each case's prefix and suffix
//       as a plain infill prompt, as many tokens as eval generated for
//       it, no stop checks.
//   The ratio eval / reference is what the eval's own work (context, stops, scoring) costs.
// Imports the built dist files: build first (`pnpm bench` does). Size: BENCH_EVAL_CASES (default 40),
// BENCH_EVAL_ROUNDS (default 3).
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger } from "../packages/core/dist/index.js";
import { LlamaEngine } from "../packages/core/dist/inference/index.js";
import { writeTinyLlamaGguf, writeTinyLoraGguf } from "../packages/core/dist/testing/index.js";
import { buildCatalog } from "../apps/mochi-server/dist/domain/catalog/build-catalog.js";
import { scanRepository } from "../apps/mochi-server/dist/domain/catalog/scan-repository.js";
import { completionContext } from "../apps/mochi-server/dist/domain/context/repository-context.js";
import { buildEvalCases } from "../apps/mochi-server/dist/domain/eval/eval-cases.js";
import { runEvalCases } from "../apps/mochi-server/dist/domain/eval/eval-run.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CASES = Number(process.env.BENCH_EVAL_CASES ?? 40);
const ROUNDS = Number(process.env.BENCH_EVAL_ROUNDS ?? 3);
const CONTEXT_SIZE = 2048;

const loadAtStart = loadavg()[0];
const scratch = mkdtempSync(join(tmpdir(), "bench-mochi-eval-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

const modelPath = join(scratch, "tiny-fim.gguf");
const adapterPath = join(scratch, "tiny-lora.gguf");
await writeTinyLlamaGguf(modelPath, { fim: true });
await writeTinyLoraGguf(adapterPath);

const scan = await scanRepository(join(ROOT, "apps/mochi-server"));
const catalog = buildCatalog(scan);
const files = scan.files.filter((f) => f.path.startsWith("src/"));
// Windows that fit the tiny model's context with room for the repository context and a block, so
// no prompt is halved: the bench's engine (core's dist) and the app's bundle have separate ToolError
// classes, so completeAt's retry would not recognise the engine's "does not fit" here.
const cases = buildEvalCases(files, { seed: 42, limit: CASES }).map((c) => ({
  ...c,
  prefix: c.prefix.slice(-1_000),
  suffix: c.suffix.slice(0, 400),
}));

const engine = new LlamaEngine(
  {
    modelPath,
    adapters: [{ path: adapterPath, scale: 1 }],
    gpu: "cpu",
    threads: 1,
    contextSize: CONTEXT_SIZE,
    sequences: 1,
    reusePrefix: true,
    deadlineMs: 60_000,
  },
  { logger: createLogger({ name: "bench", level: "warn" }) },
);
await engine.load();

const settings = { enabled: true, contextSize: CONTEXT_SIZE, countTokens: async (text) => (await engine.tokenize(text)).length };
const contextFor = (c) => completionContext(catalog, { prefix: c.prefix, language: c.language }, settings);
const score = async (prompt, expected) => {
  // As mochi eval scores (apps/mochi-server/src/cli/eval-command.ts): the training sample's ids without the end-of-sequence id.
  const sample = await engine.sample(prompt, expected);
  const ids = sample.ids.slice(0, -1);
  if (ids.length > CONTEXT_SIZE || ids.length <= sample.promptTokens) return { tokens: 0, nats: 0 };
  const lp = await engine.tokenLogProbabilities(ids, sample.promptTokens);
  return { tokens: lp.length, nats: -lp.reduce((a, b) => a + b, 0) };
};

// Warm-up: also gives the tokens eval generates per case, which the reference generates too.
const warm = await runEvalCases({ label: "adapter", model: engine, score }, cases, { contextFor });
const generated = warm.map((o) => o.generated);

const ways = {
  eval: () => runEvalCases({ label: "adapter", model: engine, score }, cases, { contextFor }),
  "eval without cross-entropy": () => runEvalCases({ label: "adapter", model: engine }, cases, { contextFor }),
  reference: async () => {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i];
      if (generated[i] === 0) continue;
      const r = await engine.generate({
        prompt: { kind: "infill", prefix: c.prefix, suffix: c.suffix },
        maxTokens: generated[i],
        temperature: 0,
      });
      if (r.mode !== "infill") throw new Error(`the engine ran ${r.mode}`);
    }
  },
};
const best = Object.fromEntries(Object.keys(ways).map((name) => [name, Number.POSITIVE_INFINITY]));
for (let round = 0; round < ROUNDS; round++) {
  const names = Object.keys(ways);
  const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
  for (const name of order) {
    const started = performance.now();
    const outcomes = await ways[name]();
    best[name] = Math.min(best[name], performance.now() - started);
    if (Array.isArray(outcomes) && outcomes.some((o, i) => o.completion !== warm[i]?.completion)) {
      throw new Error(`${name}: a greedy completion changed between rounds`);
    }
  }
}
await engine.dispose();

const kinds = cases.reduce((counts, c) => ({ ...counts, [c.kind]: (counts[c.kind] ?? 0) + 1 }), {});
const rate = (ms) => cases.length / (ms / 1000);
const line = (label, text) => console.log(`  ${label.padEnd(60)} ${text}`);
console.log(
  `mochi eval: ${cases.length} cases (${Object.entries(kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ")}) from apps/mochi-server/src, tiny GGUF with FIM tokens + tiny LoRA, CPU, 1 thread, context ${CONTEXT_SIZE}; ` +
    `best of ${ROUNDS} rounds interleaved; ${generated.reduce((a, b) => a + b, 0)} tokens generated a round; ` +
    `${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end`,
);
line("eval (context + completeAt + cross-entropy)", `${rate(best.eval).toFixed(1)} cases/s`);
line("eval without cross-entropy", `${rate(best["eval without cross-entropy"]).toFixed(1)} cases/s`);
line("reference: the same generations, raw LlamaEngine infill", `${rate(best.reference).toFixed(1)} generations/s`);
line("eval rate / reference rate", `${(best.reference / best.eval).toFixed(2)}× (no target: what context, stops and scoring cost)`);
