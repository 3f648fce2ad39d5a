import { spawn } from "node:child_process";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveChatWrapper } from "node-llama-cpp";
import type { Llama, LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlamaTokenizer } from "../../src/inference/index.js";
import { writeTinyHfModel, writeTinyLlamaGguf } from "../../src/testing/index.js";
import { tinyVocabulary } from "../../src/testing/tiny-gguf.js";
import type { TinyLlamaOptions } from "../../src/testing/index.js";
import { evaluateLogits, getTestLlama, maxAbsDifference } from "./fixtures/test-llama.js";

// writeTinyHfModel writes the same model as writeTinyLlamaGguf: transformers loads it and, on the
// ids llama.cpp's tokenizer gives, computes llama.cpp's logits and greedy tokens. One python3
// process for every case (importing torch takes seconds). Without torch and transformers the
// tests are skipped with the reason, except under CI=true, where that is a failure.
const SCRIPT = fileURLToPath(new URL("./fixtures/hf-logits.py", import.meta.url));
const STEPS = 8;
const FIM_VOCABULARY = tinyVocabulary(true).tokens.length;
/** F32 KV cache and 1 thread against float32 PyTorch: measured ~2e-6; an error in the layout moves logits by units. */
const TOLERANCE = 1e-4;
const CODE = "export function area(width: number, height: number): number {\n  return width * height;\n}\n";

const CASES: Array<[string, TinyLlamaOptions, "LlamaForCausalLM" | "Qwen2ForCausalLM"]> = [
  ["llama", {}, "LlamaForCausalLM"],
  ["qwen2", { architecture: "qwen2" }, "Qwen2ForCausalLM"],
  ["llama with FIM tokens", { fim: true, seed: 5 }, "LlamaForCausalLM"],
  ["qwen2 with FIM tokens", { architecture: "qwen2", fim: true, seed: 6 }, "Qwen2ForCausalLM"],
  ["llama, tied embeddings", { tiedEmbeddings: true, seed: 7 }, "LlamaForCausalLM"],
];

interface HfResult {
  class: string;
  logits: number[][];
  greedy: number[];
}

interface Case {
  model: LlamaModel;
  ids: number[];
  hf?: HfResult;
}

let dir: string;
let llama: Llama;
const cases = new Map<string, Case>();
let unavailable: string | undefined;

/** Starts hf-logits.py, which imports torch while the models are written; `answer` sends the cases. */
function startPython(): { answer: (input: unknown) => Promise<string> } {
  const child = spawn("python3", [SCRIPT], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  child.stdin.on("error", () => undefined); // a script that exited without reading (no torch) closes its stdin
  const done = new Promise<string>((resolve, reject) => {
    child.on("error", (error) => resolve(JSON.stringify({ unavailable: `python3 could not start: ${error.message}` })));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`hf-logits.py exited with ${code}: ${err.slice(-2000)}`))));
  });
  return {
    answer: (input) => {
      child.stdin.end(JSON.stringify(input));
      return done;
    },
  };
}

beforeAll(async () => {
  const python = startPython();
  dir = await mkdtemp(join(tmpdir(), "tiny-hf-"));
  llama = await getTestLlama();
  const requests: Array<{ model: string; ids: number[]; steps: number }> = [];
  for (const [name, options] of CASES) {
    const info = await writeTinyLlamaGguf(join(dir, `${name}.gguf`), options);
    const hf = await writeTinyHfModel(join(dir, name), options);
    expect(hf.weights).toEqual(info.weights);
    const model = await llama.loadModel({ modelPath: info.path });
    // The ids come from the engine's tokenizer (LlamaTokenizer), as training data do: with FIM
    // tokens the infill prompt (BOS, <|fim_prefix|>, …, <|fim_middle|>), else a completion prompt.
    const tokenizer = new LlamaTokenizer(model, resolveChatWrapper(model));
    const ids =
      options.fim === true
        ? tokenizer.promptTokens({ kind: "infill", prefix: CODE.slice(0, 60), suffix: CODE.slice(60) })
        : tokenizer.promptTokens({ kind: "completion", text: CODE });
    cases.set(name, { model, ids });
    requests.push({ model: hf.dir, ids, steps: STEPS });
  }
  const answer = JSON.parse(await python.answer({ cases: requests })) as { unavailable?: string; results?: HfResult[] };
  unavailable = answer.unavailable;
  if (unavailable !== undefined) {
    if (process.env.CI && process.env.CI !== "false")
      throw new Error(`torch and transformers are required under CI (pip install torch transformers): ${unavailable}`);
    console.log(`tiny-hf-model tests skipped: python3 cannot import torch and transformers (${unavailable})`);
    return;
  }
  CASES.forEach(([name], i) => {
    const entry = cases.get(name);
    if (entry) entry.hf = answer.results?.[i];
  });
}, 120_000);

afterAll(async () => {
  for (const { model } of cases.values()) await model.dispose();
  await rm(dir, { recursive: true, force: true });
});

/** llama.cpp's greedy next tokens: the argmax of its logits, appended one at a time. */
async function llamaGreedy(model: LlamaModel, ids: readonly number[], steps: number): Promise<number[]> {
  const tokens = [...ids];
  for (let i = 0; i < steps; i++) {
    const last = (await evaluateLogits(model, tokens)).at(-1) ?? new Float64Array();
    tokens.push(argmax(last));
  }
  return tokens.slice(ids.length);
}

function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] ?? -Infinity) > (values[best] ?? -Infinity)) best = i;
  return best;
}

describe("writeTinyHfModel", () => {
  it.for(CASES)("%s: transformers computes llama.cpp's logits and greedy tokens", async ([name, , modelClass], context) => {
    if (unavailable !== undefined) context.skip(unavailable);
    const entry = cases.get(name);
    const hf = entry?.hf;
    if (entry === undefined || hf === undefined) throw new Error(`no result for ${name}`);
    expect(hf.class).toBe(modelClass);
    const logits = await evaluateLogits(entry.model, entry.ids);
    const hfLogits = hf.logits.map((row) => Float64Array.from(row));
    expect(hfLogits[0]?.length).toBe(logits[0]?.length);
    expect(maxAbsDifference(hfLogits, logits)).toBeLessThan(TOLERANCE);
    // The top token after every position, and the greedy continuation.
    expect(hfLogits.map(argmax)).toEqual(logits.map(argmax));
    expect(hf.greedy).toEqual(await llamaGreedy(entry.model, entry.ids, STEPS));
  });

  it("writes the Hugging Face names, the tiny model's sizes and its special ids", async () => {
    const qwen = join(dir, "qwen2 with FIM tokens");
    const config = JSON.parse(await readFile(join(qwen, "config.json"), "utf8")) as Record<string, unknown>;
    expect(config).toMatchObject({
      architectures: ["Qwen2ForCausalLM"],
      hidden_size: 64,
      intermediate_size: 128,
      num_attention_heads: 4,
      num_key_value_heads: 2,
      num_hidden_layers: 2,
      vocab_size: FIM_VOCABULARY,
      bos_token_id: 1,
      eos_token_id: 2,
      tie_word_embeddings: false,
      torch_dtype: "float32",
    });
    const header = await safetensorsHeader(join(qwen, "model.safetensors"));
    expect(header["model.layers.1.self_attn.k_proj.bias"]).toMatchObject({ dtype: "F32", shape: [32] });
    expect(header["lm_head.weight"]).toMatchObject({ shape: [FIM_VOCABULARY, 64] });
    expect(header["model.embed_tokens.weight"]).toMatchObject({ shape: [FIM_VOCABULARY, 64] });
    const llamaHeader = await safetensorsHeader(join(dir, "llama", "model.safetensors"));
    expect(Object.keys(llamaHeader).filter((k) => k.endsWith(".bias"))).toEqual([]);
    expect(Object.keys(await safetensorsHeader(join(dir, "llama, tied embeddings", "model.safetensors")))).not.toContain("lm_head.weight");
  });
});

async function safetensorsHeader(path: string): Promise<Record<string, unknown>> {
  const bytes = await readFile(path);
  const length = Number(bytes.readBigUInt64LE(0));
  return JSON.parse(bytes.subarray(8, 8 + length).toString("utf8")) as Record<string, unknown>;
}
