import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/index.js";
import { LlamaEngine, openLlamaTokenizer } from "../../src/inference/index.js";
import type { LlamaTokenizer, PromptInput } from "../../src/inference/index.js";
import { tinyVocabulary, writeTinyLlamaGguf } from "../../src/testing/tiny-gguf.js";

// LlamaEngine's token API on the tiny generated models, 1 thread: the ids `promptTokens` returns
// are the ids llama.cpp evaluated, as node-llama-cpp's sequence records them after a generation.
const FIM = tinyVocabulary(true).fim ?? { prefix: -1, suffix: -1, middle: -1 };
const BOS = 1;
const EOS = 2;
const IM_START = 3;
const IM_END = 4;

const PROMPTS: Record<string, PromptInput> = {
  completion: { kind: "completion", text: "const total = the sum;" },
  alpaca: { kind: "alpaca", instruction: "Name the unit.", input: "export const unit = 1;" },
  infill: { kind: "infill", prefix: "function area(w, h) {\n  return ", suffix: ";\n}\n" },
  chat: {
    kind: "chat",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is the unit?" },
    ],
  },
};

interface Model {
  engine: LlamaEngine;
  tokenizer: LlamaTokenizer;
  /** What node-llama-cpp's sequence held after each generation. */
  seen: number[][];
}

let dir: string;
const models: Record<"fim" | "plain" | "noBos", Model> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "engine-tokens-"));
  const files = {
    fim: { fim: true },
    plain: {},
    noBos: { fim: true, addBosToken: false },
  } as const;
  for (const [name, options] of Object.entries(files) as Array<[keyof typeof files, (typeof files)[keyof typeof files]]>) {
    const modelPath = join(dir, `${name}.gguf`);
    await writeTinyLlamaGguf(modelPath, options);
    const seen: number[][] = [];
    const engine = new LlamaEngine(
      { modelPath, threads: 1, contextSize: 512, gpu: "cpu" },
      { logger: silentLogger, onSequenceTokens: (tokens) => seen.push([...tokens]) },
    );
    await engine.load();
    models[name] = { engine, seen, tokenizer: await openLlamaTokenizer(modelPath, { gpu: "cpu", logger: silentLogger }) };
  }
});

afterAll(async () => {
  for (const model of Object.values(models)) {
    await model.engine.dispose();
    await model.tokenizer.dispose();
  }
  await rm(dir, { recursive: true, force: true });
});

/** The ids the engine's sequence holds after generating one token from `prompt` (that token is never fed back). */
async function evaluated(model: Model, prompt: PromptInput): Promise<number[]> {
  const result = await model.engine.generate({ prompt, maxTokens: 1 });
  const held = model.seen.at(-1) ?? [];
  expect(held.length).toBe(result.tokensIn);
  return held;
}

describe("LlamaEngine.promptTokens", () => {
  for (const name of ["fim", "plain", "noBos"] as const) {
    for (const [kind, prompt] of Object.entries(PROMPTS)) {
      it(`${name} model, ${kind} prompt: the ids generate evaluates, the same from the vocabulary alone`, async () => {
        const model = models[name];
        const ids = await model.engine.promptTokens(prompt);
        expect(await evaluated(model, prompt)).toEqual(ids);
        expect(model.tokenizer.promptTokens(prompt)).toEqual(ids);
        expect(ids.length).toBeGreaterThan(5);
      });
    }
  }

  it("puts BOS ahead of every prompt when the model asks for it, never otherwise", async () => {
    for (const [kind, prompt] of Object.entries(PROMPTS)) {
      expect((await models.fim.engine.promptTokens(prompt))[0]).toBe(BOS);
      expect((await models.plain.engine.promptTokens(prompt))[0]).toBe(BOS);
      const without = await models.noBos.engine.promptTokens(prompt);
      if (kind === "chat") {
        // node-llama-cpp's chat wrappers render the BOS of the chat template themselves, whatever
        // add_bos_token says; promptTokens reports it because generate evaluates it (checked above).
        expect(without).toEqual(await models.fim.engine.promptTokens(prompt));
        continue;
      }
      expect(without, kind).not.toContain(BOS);
      // The same prompt less its BOS.
      expect([BOS, ...without]).toEqual(await models.fim.engine.promptTokens(prompt));
    }
    expect(models.fim.tokenizer.bosToken).toBe(BOS);
    expect(models.noBos.tokenizer.bosToken).toBeUndefined();
  });

  it("infill: FIM tokens in PSM order when the model has them, the prefix alone otherwise", async () => {
    const infill = PROMPTS.infill as Extract<PromptInput, { kind: "infill" }>;
    const withFim = await models.fim.engine.promptTokens(infill);
    const part = (text: string) => models.fim.tokenizer.continuationTokens(text);
    expect(withFim).toEqual([BOS, FIM.prefix, ...part(infill.prefix), FIM.suffix, ...part(infill.suffix), FIM.middle]);
    expect((await models.fim.engine.generate({ prompt: infill, maxTokens: 1 })).mode).toBe("infill");

    const plain = await models.plain.engine.promptTokens(infill);
    expect(plain).toEqual([BOS, ...(await models.plain.engine.tokenize(infill.prefix))]);
    expect(plain).not.toContain(FIM.prefix);
    expect((await models.plain.engine.generate({ prompt: infill, maxTokens: 1 })).mode).toBe("prefix-completion");
  });

  it("chat: the template's special tokens are tokens, while tokenize reads their text as text", async () => {
    const chat = await models.fim.engine.promptTokens(PROMPTS.chat as PromptInput);
    expect(chat.filter((id) => id === IM_START)).toHaveLength(3);
    expect(chat).toContain(IM_END);
    const text = await models.fim.engine.tokenize("<|im_end|><s>");
    expect(text).not.toContain(IM_END);
    expect(text).not.toContain(BOS);
    expect(await models.fim.engine.detokenize(text)).toContain("<|im_end|><s>");
  });
});

describe("LlamaEngine.tokenize and training samples", () => {
  it("tokenize adds no BOS, and the vocabulary alone tokenizes the same", async () => {
    for (const text of ["the answer", "  return width * height;\n", "é→ü"]) {
      const ids = await models.fim.engine.tokenize(text);
      expect(ids[0]).not.toBe(BOS);
      expect(models.fim.tokenizer.tokenize(text)).toEqual(ids);
      expect(models.noBos.tokenizer.tokenize(text)).toEqual(ids);
    }
  });

  it("eosToken is the end-of-sequence id llama.cpp stops generating on", async () => {
    expect(await models.fim.engine.eosToken()).toBe(EOS);
    expect(models.plain.tokenizer.eosToken).toBe(EOS);
    expect(models.plain.tokenizer.eotToken).toBe(IM_END);
  });

  it("a sample is the prompt's ids, the completion as it continues them, then the end-of-generation id", async () => {
    const tokenizer = models.fim.tokenizer;
    for (const [kind, prompt] of Object.entries(PROMPTS)) {
      // What the model writes greedily is a completion it could be trained on.
      const generated = await models.fim.engine.generate({ prompt, maxTokens: 8 });
      for (const completion of [generated.text, "width * height", "\n  return 1;"]) {
        const sample = tokenizer.sample(prompt, completion);
        expect(sample.promptTokens, kind).toBe((await models.fim.engine.promptTokens(prompt)).length);
        expect(sample.ids.slice(0, sample.promptTokens)).toEqual(await models.fim.engine.promptTokens(prompt));
        expect(sample.ids.at(-1)).toBe(kind === "chat" ? IM_END : EOS);
        expect(tokenizer.detokenize(sample.ids.slice(sample.promptTokens, -1)), `${kind}: ${JSON.stringify(completion)}`).toBe(completion);
      }
    }
  });
});

describe("the text of generated ids", () => {
  it("reads a continuation after its prompt, keeping the spaces its first piece starts with", async () => {
    const tokenizer = models.fim.tokenizer;
    for (const prompt of Object.values(PROMPTS)) {
      for (const completion of ["    return width * height;", " x", "  \n  y"]) {
        const sample = tokenizer.sample(prompt, completion);
        const ids = sample.ids.slice(sample.promptTokens, -1);
        expect(tokenizer.continuationText(ids, sample.ids.slice(0, sample.promptTokens))).toBe(completion);
      }
    }
    // Alone, the first piece's space is dropped: what generate answered before reading after the prompt.
    const alone = tokenizer.continuationTokens("    return 1;");
    expect(tokenizer.detokenize(alone)).toBe("   return 1;");
  });
});

describe("openLlamaTokenizer", () => {
  it("refuses a file that is not a loadable GGUF with NOT_READY before llama.cpp sees it", async () => {
    const path = join(dir, "not-a-model.gguf");
    await writeFile(path, "GGUF but not really");
    await expect(openLlamaTokenizer(path, { gpu: "cpu", logger: silentLogger })).rejects.toMatchObject({ code: "NOT_READY" });
  });
});
