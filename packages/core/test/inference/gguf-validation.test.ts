import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import {
  GgufValueType,
  ggufValue,
  modelHyperparameters,
  readGgufHeader,
  readLoadableLoraHeader,
  readLoadableModelHeader,
  throwIfProblems,
  validateLoraAdapter,
  validateModelHeader,
  writeGgufFile,
} from "../../src/inference/gguf/index.js";
import type { GgufHeader, GgufMetadataValue, GgufProblem, GgufTensorInfo } from "../../src/inference/gguf/index.js";
import { writeTinyLlamaGguf, writeTinyLoraGguf } from "../../src/testing/index.js";
import type { TinyLoraDefect } from "../../src/testing/index.js";

let dir: string;
let model: GgufHeader;
let qwen: GgufHeader;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "gguf-validate-"));
  model = await readGgufHeader((await writeTinyLlamaGguf(join(dir, "model.gguf"))).path);
  qwen = await readGgufHeader((await writeTinyLlamaGguf(join(dir, "qwen2.gguf"), { architecture: "qwen2" })).path);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The same header with metadata keys replaced (a value) or removed (undefined). */
function withMetadata(header: GgufHeader, changes: Record<string, GgufMetadataValue | undefined>): GgufHeader {
  const metadata = new Map(header.metadata);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) metadata.delete(key);
    else metadata.set(key, value);
  }
  return { ...header, metadata };
}

function problemTexts(problems: readonly GgufProblem[]): string[] {
  return problems.map((p) => p.problem);
}

describe("validateModelHeader", () => {
  it("accepts the tiny llama and qwen2 models and reads their hyperparameters", () => {
    expect(validateModelHeader(model)).toEqual([]);
    expect(validateModelHeader(qwen)).toEqual([]);
    expect(modelHyperparameters(model)).toEqual({
      architecture: "llama",
      contextLength: 2048,
      embeddingLength: 64,
      blockCount: 2,
      headCount: 4,
      headCountKv: 2,
      headDimK: 16,
      headDimV: 16,
      feedForwardLength: 128,
      vocabSize: 270,
    });
  });

  const REQUIRED = [
    "general.architecture",
    "llama.context_length",
    "llama.embedding_length",
    "llama.block_count",
    "llama.feed_forward_length",
    "llama.attention.head_count",
    "llama.attention.head_count_kv",
    "llama.attention.layer_norm_rms_epsilon",
    "tokenizer.ggml.model",
    "tokenizer.ggml.tokens",
    "tokenizer.ggml.token_type",
  ];
  it.each(REQUIRED)("reports a missing %s, naming the file", (key) => {
    const problems = validateModelHeader(withMetadata(model, { [key]: undefined }));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toEqual({ file: model.file, problem: expect.stringContaining(`missing ${key}`) as unknown as string });
  });

  it.each(["qwen2.context_length", "qwen2.attention.head_count", "qwen2.attention.layer_norm_rms_epsilon"])(
    "checks qwen2's own keys: missing %s",
    (key) => {
      expect(problemTexts(validateModelHeader(withMetadata(qwen, { [key]: undefined })))).toContainEqual(
        expect.stringContaining(`missing ${key}`),
      );
    },
  );

  it("reports keys stored with a type llama.cpp does not accept", () => {
    const problems = problemTexts(
      validateModelHeader(
        withMetadata(model, {
          "llama.context_length": ggufValue.i32(2048),
          "llama.attention.layer_norm_rms_epsilon": ggufValue.f64(1e-5),
          "tokenizer.ggml.token_type": ggufValue.array(GgufValueType.UINT8, []),
          "tokenizer.ggml.bos_token_id": ggufValue.i32(1),
          "general.architecture": ggufValue.str("llama"),
        }),
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "llama.context_length is stored as INT32; llama.cpp requires UINT32",
        "llama.attention.layer_norm_rms_epsilon is stored as FLOAT64; llama.cpp requires FLOAT32",
        "tokenizer.ggml.token_type is stored as ARRAY[UINT8]; llama.cpp requires ARRAY[INT32]",
        "tokenizer.ggml.bos_token_id is stored as INT32; llama.cpp requires UINT32",
      ]),
    );
  });

  it("reports inconsistent hyperparameters and tensors of the wrong shape", () => {
    expect(problemTexts(validateModelHeader(withMetadata(model, { "llama.attention.head_count_kv": ggufValue.u32(3) })))).toContainEqual(
      "llama.attention.head_count 4 is not a multiple of head_count_kv 3",
    );
    expect(problemTexts(validateModelHeader(withMetadata(model, { "llama.attention.head_count": ggufValue.u32(0) })))).toContainEqual(
      "llama.attention.head_count must be positive for every layer",
    );
    const tensors: GgufTensorInfo[] = model.tensors.map((t) => (t.name === "blk.1.ffn_up.weight" ? { ...t, dims: [64, 96] } : t));
    expect(problemTexts(validateModelHeader({ ...model, tensors }))).toContainEqual(
      'tensor "blk.1.ffn_up.weight" has shape [64, 96], expected [64, 128]',
    );
    const missing = model.tensors.filter((t) => t.name !== "blk.0.attn_k.weight");
    expect(problemTexts(validateModelHeader({ ...model, tensors: missing }))).toContainEqual('missing tensor "blk.0.attn_k.weight"');
  });

  it("accepts per-layer arrays for head counts and rejects arrays of the wrong length", () => {
    const perLayer = withMetadata(model, { "llama.attention.head_count_kv": ggufValue.array(GgufValueType.INT32, [2, 2]) });
    expect(validateModelHeader(perLayer)).toEqual([]);
    const wrong = withMetadata(model, { "llama.feed_forward_length": ggufValue.array(GgufValueType.UINT32, [128]) });
    expect(problemTexts(validateModelHeader(wrong))).toContainEqual("llama.feed_forward_length has 1 values but the model has 2 layers");
  });

  it("refuses an adapter handed over as a model", async () => {
    const lora = await readGgufHeader((await writeTinyLoraGguf(join(dir, "as-model.gguf"))).path);
    expect(problemTexts(validateModelHeader(lora))).toEqual(["this is an adapter (general.type=adapter), not a model"]);
  });
});

describe("validateLoraAdapter", () => {
  it("accepts the default tiny LoRA for the default tiny model", async () => {
    const lora = await readGgufHeader((await writeTinyLoraGguf(join(dir, "ok.gguf"))).path);
    expect(validateLoraAdapter(lora, model)).toEqual([]);
  });

  const DEFECTS: Array<[TinyLoraDefect, RegExp]> = [
    ["wrong-shape", /"blk\.0\.attn_q\.weight": lora_a \[80, 4\] and lora_b \[4, 64\] do not fit the model's \[64, 64\]/],
    ["wrong-architecture", /the adapter is for architecture "qwen2" but the model .*model\.gguf is "llama"/],
    ["alpha-float64", /adapter\.lora\.alpha is stored as FLOAT64; llama\.cpp requires FLOAT32 and aborts the process otherwise/],
    ["alpha-uint32", /adapter\.lora\.alpha is stored as UINT32; llama\.cpp requires FLOAT32/],
    ["missing-alpha", /missing adapter\.lora\.alpha/],
    ["missing-lora-b", /LoRA tensor pair for "blk\.0\.attn_q\.weight" is missing its lora_b/],
    ["mismatched-rank", /"blk\.0\.attn_q\.weight": lora_a has rank 4 but lora_b has rank 5/],
    ["not-an-adapter", /general\.type is "model", not "adapter"/],
  ];
  it.each(DEFECTS)("finds the %s adapter, naming the adapter file", async (defect, expected) => {
    const path = join(dir, `${defect}.gguf`);
    await writeTinyLoraGguf(path, { defect });
    const problems = validateLoraAdapter(await readGgufHeader(path), model);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.file === path)).toBe(true);
    expect(problemTexts(problems).join("\n")).toMatch(expected);
  });

  it("finds a LoRA for a tensor the model does not have, and lm_head on tied embeddings", async () => {
    const lora = await readGgufHeader((await writeTinyLoraGguf(join(dir, "for-qwen.gguf"), { architecture: "qwen2" })).path);
    const extra: GgufTensorInfo[] = [
      ...lora.tensors,
      { name: "output.weight.lora_a", dims: [64, 4], type: 0, offset: 0, byteLength: 0 },
      { name: "output.weight.lora_b", dims: [4, 270], type: 0, offset: 0, byteLength: 0 },
      { name: "blk.7.attn_q.weight.lora_a", dims: [64, 4], type: 0, offset: 0, byteLength: 0 },
      { name: "blk.7.attn_q.weight.lora_b", dims: [4, 64], type: 0, offset: 0, byteLength: 0 },
    ];
    const tied = await readGgufHeader(
      (await writeTinyLlamaGguf(join(dir, "tied.gguf"), { architecture: "qwen2", tiedEmbeddings: true })).path,
    );
    const problems = problemTexts(validateLoraAdapter({ ...lora, tensors: extra }, tied));
    expect(problems).toContainEqual(
      expect.stringMatching(/"output\.weight" does not exist in the model .*tied\.gguf \(it ties its output to token_embd\)/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/"blk\.7\.attn_q\.weight" does not exist in the model .* \(wrong base model\?\)/),
    );
  });

  it("checks the token_embd pair the way llama.cpp stores it (lora_a [r, n_vocab], lora_b [r, n_embd])", async () => {
    const lora = await readGgufHeader((await writeTinyLoraGguf(join(dir, "embd.gguf"))).path);
    const pair = (a: number[], b: number[]): GgufTensorInfo[] => [
      { name: "token_embd.weight.lora_a", dims: a, type: 0, offset: 0, byteLength: 0 },
      { name: "token_embd.weight.lora_b", dims: b, type: 0, offset: 0, byteLength: 0 },
    ];
    const check = (tensors: GgufTensorInfo[]) =>
      problemTexts(validateLoraAdapter({ ...lora, tensors }, model)).filter((p) => p.includes("token_embd"));
    expect(check(pair([4, 270], [4, 64]))).toEqual([]);
    expect(check(pair([270, 4], [4, 64]))[0]).toMatch(/do not fit the model's \[64, 270\]/);
  });
});

describe("NOT_READY before llama.cpp", () => {
  it("throwIfProblems throws NOT_READY naming the file and the problem", () => {
    const error = (() => {
      try {
        throwIfProblems([{ file: "/models/a.gguf", problem: "missing llama.block_count" }]);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("NOT_READY");
    expect((error as ToolError).message).toBe("/models/a.gguf: missing llama.block_count");
    expect((error as ToolError).details).toEqual({ problems: [{ file: "/models/a.gguf", problem: "missing llama.block_count" }] });
    expect(() => throwIfProblems([])).not.toThrow();
  });

  it("readLoadableModelHeader refuses a model file with a missing hyperparameter", async () => {
    const broken = join(dir, "no-block-count.gguf");
    await rewriteWithout(model, "llama.block_count", broken);
    await expect(readLoadableModelHeader(broken)).rejects.toMatchObject({
      code: "NOT_READY",
      message: expect.stringContaining(`${broken}: missing llama.block_count`) as unknown as string,
    });
    await expect(readLoadableModelHeader(model.file)).resolves.toMatchObject({ file: model.file });
  });

  it("readLoadableModelHeader turns an unreadable file into NOT_READY naming it", async () => {
    await expect(readLoadableModelHeader(join(dir, "absent.gguf"))).rejects.toMatchObject({
      code: "NOT_READY",
      message: `${join(dir, "absent.gguf")}: file not found`,
    });
  });

  it("readLoadableLoraHeader refuses a FLOAT64 alpha with NOT_READY naming the adapter", async () => {
    const path = join(dir, "f64.gguf");
    await writeTinyLoraGguf(path, { defect: "alpha-float64" });
    await expect(readLoadableLoraHeader(path, model)).rejects.toMatchObject({
      code: "NOT_READY",
      message: expect.stringContaining(`${path}: adapter.lora.alpha is stored as FLOAT64`) as unknown as string,
    });
  });
});

/** Writes `header`'s file again without one metadata key (tensor data copied byte for byte). */
async function rewriteWithout(header: GgufHeader, key: string, path: string): Promise<void> {
  const bytes = await readFile(header.file);
  await writeGgufFile(path, {
    metadata: [...header.metadata].filter(([k]) => k !== key),
    tensors: header.tensors.map((t) => ({
      name: t.name,
      dims: t.dims,
      type: t.type,
      bytes: bytes.subarray(header.dataOffset + t.offset, header.dataOffset + t.offset + t.byteLength),
    })),
  });
}
