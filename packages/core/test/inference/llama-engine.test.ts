import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryGuard, silentLogger } from "../../src/index.js";
import {
  alpacaPrompt,
  checkJson,
  GgufValueType,
  ggufValue,
  LlamaEmbedder,
  LlamaEngine,
  longestTokenText,
  promptTextUnits,
  readGgufHeader,
  type GgufMetadataValue,
  type LlamaEngineConfig,
} from "../../src/inference/index.js";
import { writeTinyLlamaGguf, writeTinyLoraGguf } from "../../src/testing/index.js";

// Real llama.cpp through node-llama-cpp on tiny generated models, 1 thread (2 cores are shared by the whole suite).
let dir: string;
let modelPath: string;
let fimModelPath: string;
let loraPath: string;
let engine: LlamaEngine;
const engines: LlamaEngine[] = [];
/** A grammar that forces ~1,500 tokens: a long generation that cannot end early at EOS. */
const LONG = { type: "array", items: { type: "string", minLength: 48, maxLength: 48 }, minItems: 30, maxItems: 30 };

function makeEngine(config: Partial<LlamaEngineConfig> = {}, guard?: MemoryGuard): LlamaEngine {
  const e = new LlamaEngine(
    { modelPath, threads: 1, contextSize: 1024, gpu: "cpu", ...config },
    { logger: silentLogger, ...(guard ? { memoryGuard: guard } : {}) },
  );
  engines.push(e);
  return e;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "llama-engine-"));
  modelPath = join(dir, "tiny.gguf");
  fimModelPath = join(dir, "tiny-fim.gguf");
  loraPath = join(dir, "tiny-lora.gguf");
  await writeTinyLlamaGguf(modelPath);
  await writeTinyLlamaGguf(fimModelPath, { fim: true });
  await writeTinyLoraGguf(loraPath);
  engine = makeEngine({ sequences: 2 });
  await engine.load();
});

afterAll(async () => {
  for (const e of engines) await e.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe("LlamaEngine on a tiny GGUF model", () => {
  it("loads once for concurrent callers and reports ready", async () => {
    const fresh = makeEngine();
    const progress: number[] = [];
    await Promise.all([fresh.load({ onProgress: (p) => progress.push(p) }), fresh.load(), fresh.complete("a", { maxTokens: 2 })]);
    expect(fresh.readiness.isReady).toBe(true);
    expect(progress.at(-1)).toBe(1);
  });

  it("completes deterministically at temperature 0 and reports tokens, time and confidence", async () => {
    const a = await engine.complete("hello", { maxTokens: 24 });
    const b = await engine.complete("hello", { maxTokens: 24 });
    expect(a.text).toBe(b.text);
    expect(a.tokensOut).toBeGreaterThan(0);
    expect(a.tokensOut).toBeLessThanOrEqual(24);
    expect(a.tokensIn).toBeGreaterThan(1);
    expect(a.wallMs).toBeGreaterThan(0);
    expect(a.confidence).toBeGreaterThan(0);
    expect(a.confidence).toBeLessThanOrEqual(1);
    expect(a.mode).toBe("completion");
  });

  it("chats through the model's own (ChatML) template", async () => {
    const result = await engine.chat(
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      { maxTokens: 16 },
    );
    expect(result.mode).toBe("chat");
    expect(result.tokensIn).toBeGreaterThan(5);
  });

  it("formats Alpaca prompts and stops at a new section", async () => {
    const result = await engine.alpaca("Name a fruit", "one word", { maxTokens: 12, stop: ["a"] });
    expect(result.mode).toBe("alpaca");
    expect(result.text).not.toContain("a");
  });

  it("fills in the middle with FIM tokens, and says when the model has none", async () => {
    const fim = makeEngine({ modelPath: fimModelPath });
    const withFim = await fim.infill("def add(a, b):\n    return ", "\n", { maxTokens: 8 });
    expect(withFim.mode).toBe("infill");
    expect(fim.hasInfillTokens).toBe(true);
    const without = await engine.infill("def add(a, b):\n    return ", "\n", { maxTokens: 8 });
    expect(without.mode).toBe("prefix-completion");
  });

  it("JSON-schema output parses and validates on 20 of 20 calls", async () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string" },
        kind: { enum: ["alpha", "beta", "gamma"] },
        active: { type: "boolean" },
        count: { type: "integer" },
        ratio: { type: "number" },
        tags: { type: "array", items: { type: "string" } },
        owner: { type: "object", properties: { id: { type: "integer" }, label: { type: "string" } }, required: ["id", "label"] },
      },
      required: ["name", "kind", "active", "count", "ratio", "tags", "owner"],
    };
    let valid = 0;
    let retries = 0;
    for (let i = 0; i < 20; i++) {
      const result = await engine.json({
        prompt: { kind: "completion", text: `Record ${i}: ` },
        schema,
        maxTokens: 400,
        // byte-level vocabulary: one token per character; keep the random model's strings short
        grammarBounds: { maxStringLength: 16, maxArrayItems: 4 },
        temperature: i === 0 ? 0 : 0.8,
        seed: i,
        deadlineMs: 10_000,
      });
      expect(checkJson(JSON.stringify(result.value), schema).ok).toBe(true);
      expect(result.schemaValid).toBe(true);
      retries += result.retries;
      valid += 1;
    }
    expect(valid).toBe(20);
    expect(retries).toBeLessThan(20);
  });

  it("a LoRA adapter changes the greedy output; scale 0 reproduces the base", async () => {
    const base = await engine.complete("The", { maxTokens: 24 });
    const adapted = makeEngine({ adapters: [{ path: loraPath, scale: 1 }] });
    const off = makeEngine({ adapters: [{ path: loraPath, scale: 0 }] });
    expect((await adapted.complete("The", { maxTokens: 24 })).text).not.toBe(base.text);
    expect((await off.complete("The", { maxTokens: 24 })).text).toBe(base.text);
  });

  it.each(["wrong-shape", "wrong-architecture", "alpha-float64", "missing-alpha"] as const)(
    "a %s adapter gives NOT_READY naming the file, and the process lives on",
    async (defect) => {
      const bad = join(dir, `bad-${defect}.gguf`);
      await writeTinyLoraGguf(bad, { defect });
      const broken = makeEngine({ adapters: [{ path: bad, scale: 1 }] });
      const error = await broken.complete("x", { maxTokens: 2 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "NOT_READY" });
      expect((error as Error).message).toContain(bad);
      expect(broken.readiness.state.state).toBe("failed");
      expect((await engine.complete("still alive", { maxTokens: 2 })).tokensOut).toBeGreaterThan(0);
    },
  );

  it("a missing model file is NOT_READY, not a crash", async () => {
    const missing = makeEngine({ modelPath: join(dir, "nope.gguf") });
    await expect(missing.load()).rejects.toMatchObject({ code: "NOT_READY" });
  });

  it("refuses to load above the memory bound with RESOURCE_EXHAUSTED", async () => {
    const guard = new MemoryGuard({ boundBytes: 1024 * 1024, rssBytes: () => 0, availableBytes: () => 1024 ** 4 });
    const small = makeEngine({}, guard);
    await expect(small.load()).rejects.toMatchObject({ code: "RESOURCE_EXHAUSTED" });
  });

  it("a 50 ms deadline on a long generation returns TIMEOUT, and the next call succeeds", async () => {
    const started = Date.now();
    await expect(
      engine.generate({ prompt: { kind: "completion", text: "Once" }, jsonSchema: LONG, maxTokens: 900, deadlineMs: 50 }),
    ).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(50 + 100);
    const next = await engine.complete("Once upon a time", { maxTokens: 4 });
    expect(next.tokensOut).toBe(4);
  });

  it("calls beyond the free sequences wait in a bounded queue; overflow is RESOURCE_EXHAUSTED", async () => {
    const queued = makeEngine({ sequences: 1, maxQueue: 1 });
    await queued.load();
    const long = (text: string) =>
      queued.generate({ prompt: { kind: "completion", text }, jsonSchema: LONG, maxTokens: 300, deadlineMs: 20_000 });
    const results = await Promise.allSettled([long("a"), long("b"), long("c")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: "RESOURCE_EXHAUSTED" });
  });

  it("refuses a prompt that does not fit the context", async () => {
    await expect(engine.complete("x".repeat(50), { maxTokens: 5_000 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("refuses a prompt far too long for the context before tokenizing it (llama.cpp would block for seconds)", async () => {
    // 400,000 characters without a space: llama.cpp's SentencePiece tokenizer takes ~15 s on them,
    // in one native call the deadline cannot interrupt. The vocabulary's longest piece (12 code
    // units, <|im_start|>) bounds the tokens from below: at least 33,334, refused at once.
    const started = performance.now();
    const refused = engine.generate({
      prompt: { kind: "chat", messages: [{ role: "user", content: "a".repeat(400_000) }] },
      maxTokens: 8,
      deadlineMs: 2_000,
    });
    await expect(refused).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/at least 33334 tokens.*does not fit the context of 1024/),
      details: { minPromptTokens: 33_334 },
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    // Without fill-in-the-middle tokens (this model) an infill runs on its prefix alone: a huge
    // suffix that is never tokenized is no reason to refuse.
    const infill = await engine.infill("def add(a, b):\n    return ", "a".repeat(400_000), { maxTokens: 4 });
    expect(infill.mode).toBe("prefix-completion");
    // Near the bound the prompt is tokenized and refused by its real length.
    await expect(engine.complete("a".repeat(2_000), { maxTokens: 8 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      details: { promptTokens: expect.any(Number) },
    });
  });

  it("embeds through the Embedder interface with unit vectors", async () => {
    const embedder = await LlamaEmbedder.create(engine);
    expect(embedder.dimension).toBe(64);
    const [a, b] = await embedder.embed(["alpha", "alpha"], { task: "document" });
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect([...a!]).toEqual([...b!]);
  });
});

describe("the prompt's least token count, from the vocabulary", () => {
  it("is the longest piece for SentencePiece and byte-level BPE vocabularies, unknown for others", async () => {
    expect(longestTokenText(await readGgufHeader(modelPath))).toBe("<|im_start|>".length);
    expect(longestTokenText(await readGgufHeader(fimModelPath))).toBe("<|fim_prefix|>".length);
    const vocabulary = (model: string, tokens: string[]) =>
      new Map<string, GgufMetadataValue>([
        ["tokenizer.ggml.model", ggufValue.str(model)],
        ["tokenizer.ggml.tokens", ggufValue.array(GgufValueType.STRING, tokens)],
      ]);
    expect(longestTokenText({ metadata: vocabulary("gpt2", ["a", "Ġthe", "================"]) })).toBe(16);
    // UGM collapses runs of whitespace: one token can stand for any number of spaces.
    expect(longestTokenText({ metadata: vocabulary("t5", ["a", "▁the"]) })).toBeUndefined();
    expect(longestTokenText({ metadata: new Map() })).toBeUndefined();
  });

  it("counts the text every token must cover", () => {
    expect(promptTextUnits({ kind: "completion", text: "abc" }, true)).toBe(3);
    expect(promptTextUnits({ kind: "infill", prefix: "ab", suffix: "cde" }, true)).toBe(5);
    // Without fill-in-the-middle tokens the engine completes the prefix alone.
    expect(promptTextUnits({ kind: "infill", prefix: "ab", suffix: "cde" }, false)).toBe(2);
    expect(promptTextUnits({ kind: "alpaca", instruction: "Why?", input: "x" }, true)).toBe(alpacaPrompt("Why?", "x").length);
    expect(
      promptTextUnits(
        {
          kind: "chat",
          messages: [
            { role: "system", content: " sys " },
            { role: "user", content: "hello" },
          ],
        },
        true,
      ),
    ).toBe(8);
  });
});
