// Benchmark (issue #3, part 8): @local-mcp/core's inference and embeddings on generated tiny GGUF
// models, 1 thread, CPU.
//   1. Engine overhead: tokens/s of LlamaEngine.complete vs node-llama-cpp used directly on the
//      same model with the same context settings, prompts and greedy sampling (target ≥ 0.95×).
//      Two direct baselines: sequence.evaluate (the leanest documented path) and LlamaCompletion;
//      the faster one is the reference. Both sides must produce the same tokens. The sides run
//      interleaved prompt by prompt (rotating order) so they see the same machine state. A third
//      direct loop asks for each token's probability (evaluateWithMetadata + confidence), the work
//      the engine does for its confidence score: it splits the gap into node-llama-cpp's cost of
//      that metadata and the engine's own.
//   2. Time to first token: a whole 1-token call on each side (prompt evaluation + one token).
//   3. JSON-schema call latency (engine.json): p50/p95, and the retries the post-check caused.
//   4. Embedding throughput per backend: LocalEmbedder, LlamaEmbedder on the tiny model, and
//      GeminiEmbedder against the loopback fake of the Gemini REST API.
// Imports the built dist files: build first (`pnpm bench` does; or `npx tsc -p tsconfig.build.json`
// in packages/core). Sizes can be changed with BENCH_INFERENCE_ROUNDS and BENCH_INFERENCE_PROMPTS.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createLogger } from "../packages/core/dist/index.js";
import { LlamaEmbedder, LlamaEngine } from "../packages/core/dist/inference/index.js";
import { GeminiEmbedder, LocalEmbedder } from "../packages/core/dist/embeddings/index.js";
import { TINY_MODEL, startFakeGemini, writeTinyLlamaGguf } from "../packages/core/dist/testing/index.js";

// node-llama-cpp is a dev dependency of packages/core: resolve the very copy the engine loads.
const requireFromCore = createRequire(new URL("../packages/core/package.json", import.meta.url));
const nlcEntry = requireFromCore.resolve("node-llama-cpp");
const nlc = await import(pathToFileURL(nlcEntry).href);
const nlcVersion = JSON.parse(readFileSync(join(nlcEntry, "../../package.json"), "utf8")).version;

const ROUNDS = Number(process.env.BENCH_INFERENCE_ROUNDS ?? 6);
const PROMPTS = Number(process.env.BENCH_INFERENCE_PROMPTS ?? 32);
const MAX_TOKENS = 128;
const CONTEXT_SIZE = 1024;
const THREADS = 1;
const JSON_CALLS = 30;
const TTFT_CALLS = 40;

const benchStarted = performance.now();
const logger = createLogger({ name: "bench", level: "warn" });
const scratch = mkdtempSync(join(tmpdir(), "bench-inference-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true })); // also when a check throws
const modelPath = join(scratch, "tiny.gguf");
const tiny = await writeTinyLlamaGguf(modelPath);

// ---------------------------------------------------------------------------------------------
// The two sides, same settings: 1 thread, 1 sequence, same context size, flash attention off,
// F16 KV cache (both defaults), greedy.
const engine = new LlamaEngine(
  { modelPath, threads: THREADS, contextSize: CONTEXT_SIZE, sequences: 1, gpu: "cpu", deadlineMs: 60_000 },
  { logger },
);
await engine.load();

const llama = await nlc.getLlama({
  build: "never",
  gpu: false,
  // llama.cpp's log settings are process-wide: with a second Llama instance the engine's llama.cpp
  // lines no longer reach its logger, and at "warn" one line per embedded text ("embeddings
  // required but some input tokens were not marked as outputs") lands on stdout. "error" keeps the
  // benchmark's output clean.
  logLevel: nlc.LlamaLogLevel.error,
  logger: (_level, message) => process.stderr.write(message.endsWith("\n") ? message : `${message}\n`),
});
const model = await llama.loadModel({ modelPath });
const context = await model.createContext({ contextSize: CONTEXT_SIZE, sequences: 1, threads: THREADS, flashAttention: false });
const sequence = context.getSequence();
const completion = new nlc.LlamaCompletion({ contextSequence: sequence, autoDisposeSequence: false });
const bos = model.tokens.bos !== null && model.tokens.shouldPrependBosToken ? [model.tokens.bos] : [];

const WORDS = "the quick brown fox jumps over a lazy dog while seven wizards quietly hex jolly boxers near old mills".split(" ");
const prompts = Array.from({ length: PROMPTS }, (_, i) => {
  const words = Array.from({ length: 3 + (i % 9) }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]);
  return `${i}. ${words.join(" ")}`;
});

// Each side returns its text and generated tokens (ours reports a count; direct sides the tokens).
const sides = {
  ours: async (prompt) => {
    const r = await engine.complete(prompt, { maxTokens: MAX_TOKENS, temperature: 0 });
    return { text: r.text, count: r.tokensOut };
  },
  // What a user would write with node-llama-cpp alone: clear the sequence, evaluate BOS + prompt
  // tokens, take tokens until EOS (evaluate ends there itself) or maxTokens, detokenize.
  evaluate: async (prompt) => {
    await sequence.clearHistory();
    const tokens = [];
    for await (const token of sequence.evaluate([...bos, ...model.tokenize(prompt)], { temperature: 0 })) {
      tokens.push(token);
      if (tokens.length >= MAX_TOKENS) break;
    }
    return { text: model.detokenize(tokens), count: tokens.length, tokens };
  },
  // Not a baseline but the attribution: the same loop asking node-llama-cpp for each token's
  // probability, as the engine does for its confidence score.
  withConfidence: async (prompt) => {
    await sequence.clearHistory();
    const tokens = [];
    const input = [...bos, ...model.tokenize(prompt)];
    for await (const { token } of sequence.evaluateWithMetadata(input, { confidence: true }, { temperature: 0 })) {
      tokens.push(token);
      if (tokens.length >= MAX_TOKENS) break;
    }
    return { text: model.detokenize(tokens), count: tokens.length, tokens };
  },
  // node-llama-cpp's completion helper (it reuses the sequence's common prefix itself). Given
  // tokens, as LlamaCompletion trims the leading space of a string prompt (the engine does not);
  // it prepends BOS itself. Repeat penalty off, so it samples the same greedy tokens. Its text and
  // onToken hold back a trailing incomplete UTF-8 character, so its sampled tokens are read from
  // the sequence: every sampled token but the last is fed back into the context.
  completion: async (prompt) => {
    const input = model.tokenize(prompt);
    const { metadata } = await completion.generateCompletionWithMeta(input, {
      maxTokens: MAX_TOKENS,
      temperature: 0,
      repeatPenalty: false,
    });
    const fed = sequence.contextTokens.slice(bos.length + input.length);
    const atEos = metadata.stopReason === "eogToken";
    return { count: fed.length + (atEos ? 0 : 1), tokens: fed, atEos };
  },
};
const names = Object.keys(sides);

const now = () => performance.now();
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (xs) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const fmtRate = (x) => `${Math.round(x).toLocaleString("en-US")}`;
const verdict = (ok) => (ok ? "MET" : "MISSED");

// Warm-up round, which is also the check that every side generates the very same tokens: ours
// and evaluate the same text and token count; LlamaCompletion the same tokens, except that it
// samples one token past maxTokens when the limit falls inside a UTF-8 character (it does not count
// a held-back partial token), so each side's rate uses the tokens that side really sampled.
const warm = Object.fromEntries(names.map((name) => [name, []]));
for (const name of names) for (const prompt of prompts) warm[name].push(await sides[name](prompt));
let overshoots = 0;
for (let i = 0; i < prompts.length; i++) {
  const [ours, evaluated, completed] = [warm.ours[i], warm.evaluate[i], warm.completion[i]];
  const what = `prompt ${JSON.stringify(prompts[i])}`;
  for (const [name, other] of [
    ["sequence.evaluate", evaluated],
    ["evaluateWithMetadata", warm.withConfidence[i]],
  ]) {
    if (ours.text !== other.text || ours.count !== other.count) {
      throw new Error(`ours and ${name} differ on ${what}: ${ours.count} vs ${other.count} tokens`);
    }
  }
  const common = Math.min(completed.tokens.length, evaluated.count);
  const samePrefix = completed.tokens.slice(0, common).every((token, k) => token === evaluated.tokens[k]);
  const agrees = completed.atEos
    ? evaluated.count < MAX_TOKENS && completed.count === evaluated.count
    : evaluated.count === MAX_TOKENS && completed.count - MAX_TOKENS <= 1;
  if (!samePrefix || !agrees) {
    throw new Error(`LlamaCompletion and sequence.evaluate differ on ${what}: ${completed.count} vs ${evaluated.count} tokens`);
  }
  if (completed.count > MAX_TOKENS) overshoots += 1;
}
const tokensPerRound = Object.fromEntries(names.map((name) => [name, warm[name].reduce((sum, r) => sum + r.count, 0)]));
const stoppedAtEos = warm.ours.filter((r) => r.count < MAX_TOKENS).length;

// Measured rounds, interleaved prompt by prompt with a rotating order. Other work on this shared
// machine only ever adds time, so each side's figure sums, per prompt, its best time over the
// rounds; the ratio of per-round medians is printed too.
const times = Object.fromEntries(names.map((name) => [name, prompts.map(() => [])]));
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < prompts.length; i++) {
    const shift = (round * prompts.length + i) % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
      const start = now();
      const got = await sides[name](prompts[i]);
      times[name][i].push(now() - start);
      if (got.count !== warm[name][i].count) throw new Error(`${name} generated ${got.count} tokens, then ${warm[name][i].count}`);
    }
  }
}
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const rateFrom = (name, pick) => tokensPerRound[name] / (sum(times[name].map(pick)) / 1000);
const rate = Object.fromEntries(names.map((name) => [name, rateFrom(name, (ms) => Math.min(...ms))]));
const medianRate = Object.fromEntries(names.map((name) => [name, rateFrom(name, median)]));
const roundRate = (name, r) => rateFrom(name, (ms) => ms[r]);
const reference = rate.evaluate >= rate.completion ? "evaluate" : "completion";
const ratio = rate.ours / rate[reference];
const medianRatio = medianRate.ours / Math.max(medianRate.evaluate, medianRate.completion);
// Round by round (the sides of a round ran side by side): the spread shows the machine's noise.
const roundRatios = Array.from(
  { length: ROUNDS },
  (_, r) => roundRate("ours", r) / Math.max(roundRate("evaluate", r), roundRate("completion", r)),
).sort((a, b) => a - b);
const sameWorkRatio = rate.ours / rate.withConfidence;

// ---------------------------------------------------------------------------------------------
// Time to first token: a whole call for one token on each side (clear the sequence, tokenize,
// evaluate the prompt, sample one token, leave the loop, detokenize), interleaved.
const ttft = { ours: [], direct: [] };
const firstToken = {
  ours: async (prompt) => {
    const start = now();
    await engine.complete(prompt, { maxTokens: 1, temperature: 0 });
    return now() - start;
  },
  direct: async (prompt) => {
    const start = now();
    await sequence.clearHistory();
    const tokens = [];
    for await (const token of sequence.evaluate([...bos, ...model.tokenize(prompt)], { temperature: 0 })) {
      tokens.push(token);
      break;
    }
    model.detokenize(tokens);
    return now() - start;
  },
};
for (let i = 0; i < TTFT_CALLS + 4; i++) {
  const prompt = prompts[i % prompts.length];
  for (const name of i % 2 ? ["ours", "direct"] : ["direct", "ours"]) {
    const ms = await firstToken[name](prompt);
    if (i >= 4) ttft[name].push(ms);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON-schema calls: strings, enum, boolean, integer, number, array, nested object.
const schema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1 },
    kind: { type: "string", enum: ["fruit", "vegetable", "grain"] },
    fresh: { type: "boolean" },
    count: { type: "integer" },
    price: { type: "number" },
    tags: { type: "array", items: { type: "string" }, maxItems: 3 },
    origin: {
      type: "object",
      properties: { country: { type: "string" }, organic: { type: "boolean" } },
      required: ["country", "organic"],
      additionalProperties: false,
    },
  },
  required: ["name", "kind", "fresh", "count", "price", "tags", "origin"],
  additionalProperties: false,
};
const grammarBounds = { maxStringLength: 16, maxArrayItems: 3 };
const jsonRequest = (i) => ({
  prompt: { kind: "completion", text: `Describe item ${i} (${WORDS[i % WORDS.length]}) as JSON:\n` },
  schema,
  grammarBounds,
  maxTokens: 400,
  maxRetries: 2,
});
const jsonMs = [];
const jsonTokens = [];
let jsonColdMs = 0;
let jsonRetries = 0;
let jsonRetriedCalls = 0;
const jsonFailures = [];
// Call 0 builds the grammar (cached by the engine afterwards): timed apart, not in p50/p95.
for (let i = 0; i <= JSON_CALLS; i++) {
  const start = now();
  try {
    const result = await engine.json(jsonRequest(i));
    const ms = now() - start;
    if (i === 0) jsonColdMs = ms;
    else jsonMs.push(ms);
    jsonTokens.push(result.tokensOut);
    jsonRetries += result.retries;
    if (result.retries > 0) jsonRetriedCalls += 1;
  } catch (error) {
    jsonFailures.push(error.message);
  }
}
const jsonSorted = [...jsonMs].sort((a, b) => a - b);

// ---------------------------------------------------------------------------------------------
// Embedding throughput per backend.
const sentences = Array.from({ length: 400 }, (_, i) => {
  const words = Array.from({ length: 8 + (i % 12) }, (_, j) => WORDS[(i * 5 + j * 7) % WORDS.length]);
  return `${i}: ${words.join(" ")}.`;
});
async function throughput(embedder, texts, batch, repeat) {
  await embedder.embed(texts.slice(0, Math.min(batch, 16)), { task: "document" }); // warm-up
  const start = now();
  let count = 0;
  for (let r = 0; r < repeat; r++) {
    for (let i = 0; i < texts.length; i += batch) {
      const vectors = await embedder.embed(texts.slice(i, i + batch), { task: "document" });
      count += vectors.length;
    }
  }
  const seconds = (now() - start) / 1000;
  return { rate: count / seconds, count, dimension: embedder.dimension };
}
const local = await throughput(new LocalEmbedder(), sentences, 100, 5);
const llamaEmbedder = await LlamaEmbedder.create(engine);
const gguf = await throughput(llamaEmbedder, sentences, 50, 1);
const fake = await startFakeGemini({ apiKey: "bench-key" });
const gemini = await throughput(new GeminiEmbedder({ apiKey: "bench-key", baseUrl: fake.baseUrl }), sentences, 100, 5);
await fake.close();

await engine.dispose();
completion.dispose();
await context.dispose();
await model.dispose();
await llama.dispose();

// ---------------------------------------------------------------------------------------------
const fmtMs = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const row = (label, value, unit, note = "") => console.log(`    ${label.padEnd(44)}${fmtRate(value).padStart(7)} ${unit}${note}`);
const ttftOurs = median(ttft.ours);
const ttftDirect = median(ttft.direct);
console.log(
  `inference on a tiny GGUF (llama F32, n_embd ${TINY_MODEL.embeddingLength}, ${TINY_MODEL.blockCount} layers, vocab ${tiny.vocabulary.tokens.length}), ` +
    `CPU, ${THREADS} thread, context ${CONTEXT_SIZE}, node-llama-cpp ${nlcVersion}, Node ${process.version}`,
);
console.log(
  `  generation: ${PROMPTS} prompts × ≤${MAX_TOKENS} tokens, greedy, ${tokensPerRound.ours} tokens a round (${stoppedAtEos} prompts end at EOS), ` +
    `${ROUNDS} rounds interleaved, best time per prompt; same tokens on every side: checked` +
    (overshoots > 0 ? ` (LlamaCompletion sampled 1 token past the limit on ${overshoots} prompts, counted for it)` : ""),
);
row("ours: LlamaEngine.complete", rate.ours, "tokens/s");
row("direct: sequence.evaluate", rate.evaluate, "tokens/s");
row("direct: LlamaCompletion.generateCompletion", rate.completion, "tokens/s");
row("direct: evaluateWithMetadata({confidence})", rate.withConfidence, "tokens/s", "  (same work as ours; not a reference)");
console.log(
  `  engine overhead ratio: ${ratio.toFixed(3)}× of direct ${reference} (target ≥ 0.95×) ${verdict(ratio >= 0.95)}` +
    `  [from medians ${medianRatio.toFixed(3)}×; single rounds ${roundRatios[0].toFixed(2)}–${roundRatios.at(-1).toFixed(2)}×]`,
);
console.log(
  `    of which node-llama-cpp's per-token confidence: ${(rate.withConfidence / rate.evaluate).toFixed(3)}×; ` +
    `ours vs that same loop: ${sameWorkRatio.toFixed(3)}×`,
);
console.log(
  `  time to first token (1-token call, median of ${TTFT_CALLS}): ours ${fmtMs(ttftOurs)}, direct evaluate ${fmtMs(ttftDirect)} ` +
    `(+${fmtMs(ttftOurs - ttftDirect)} per call)`,
);
console.log(
  `  JSON-schema call (string, enum, boolean, integer, number, string array, nested object; ` +
    `grammar bounds ${grammarBounds.maxStringLength} chars / ${grammarBounds.maxArrayItems} items):`,
);
console.log(
  `    p50 ${fmtMs(quantile(jsonSorted, 0.5))}, p95 ${fmtMs(quantile(jsonSorted, 0.95))} over ${jsonMs.length} calls ` +
    `(median ${median(jsonTokens)} tokens out); first call, building the grammar: ${fmtMs(jsonColdMs)}`,
);
console.log(
  `    retries: ${jsonRetries} in ${jsonRetriedCalls} of ${JSON_CALLS + 1} calls; failed after retries: ${jsonFailures.length}` +
    (jsonFailures.length > 0 ? ` (first: ${jsonFailures[0]})` : ""),
);
console.log(`  embeddings (${sentences.length} sentences of 8-19 words):`);
row(`LocalEmbedder (built in, ${local.dimension} dims)`, local.rate, "texts/s");
row(`LlamaEmbedder (tiny GGUF, ${gguf.dimension} dims, 1 thread)`, gguf.rate, "texts/s");
row(
  `GeminiEmbedder (${gemini.dimension} dims, batches of 100)`,
  gemini.rate,
  "texts/s",
  "  ← our client + @google/genai + the loopback fake, NOT Google's service",
);
console.log(`  (whole benchmark ${((now() - benchStarted) / 1000).toFixed(1)} s)`);
