import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GgmlType, GgufValueType, float16BitsToFloat32, readGgufHeader } from "../../src/inference/gguf/index.js";
import type { GgufHeader } from "../../src/inference/gguf/index.js";
import {
  PeftConversionError,
  SafetensorsFile,
  convertPeftToGguf,
  ggufTensorForModule,
  parsePeftTensorName,
  permuteRopeRows,
  writeSafetensorsFile,
} from "../../src/inference/peft/index.js";
import type { ConvertPeftOptions, PeftRefusalReason } from "../../src/inference/peft/index.js";
import { writeTinyLlamaGguf, writeTinyPeftAdapter } from "../../src/testing/index.js";
import type { TinyPeftOptions } from "../../src/testing/index.js";

let dir: string;
let llamaBase: string;
let qwenBase: string;
let tiedBase: string;
let counter = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "peft-convert-"));
  llamaBase = (await writeTinyLlamaGguf(join(dir, "llama.gguf"))).path;
  qwenBase = (await writeTinyLlamaGguf(join(dir, "qwen2.gguf"), { architecture: "qwen2" })).path;
  tiedBase = (await writeTinyLlamaGguf(join(dir, "tied.gguf"), { architecture: "qwen2", tiedEmbeddings: true })).path;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function adapter(options: TinyPeftOptions = {}): Promise<string> {
  return (await writeTinyPeftAdapter(join(dir, `adapter-${++counter}`), options)).dir;
}

function out(): string {
  return join(dir, `out-${++counter}.gguf`);
}

/** A tensor's values from a GGUF file (F32 or F16), in file order (innermost dim fastest). */
async function ggufValues(header: GgufHeader, name: string): Promise<Float32Array> {
  const tensor = header.tensors.find((t) => t.name === name);
  if (tensor === undefined) throw new Error(`no tensor ${name}`);
  const bytes = await readFile(header.file);
  const start = header.dataOffset + tensor.offset;
  const count = tensor.dims.reduce((a, b) => a * b, 1);
  return Float32Array.from({ length: count }, (_, i) =>
    tensor.type === GgmlType.F32 ? bytes.readFloatLE(start + i * 4) : float16BitsToFloat32(bytes.readUInt16LE(start + i * 2)),
  );
}

describe("PEFT tensor names", () => {
  it.each([
    ["base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight", "blk.0.attn_q.weight", "A"],
    ["base_model.model.model.layers.11.self_attn.k_proj.lora_B.weight", "blk.11.attn_k.weight", "B"],
    ["base_model.model.model.layers.2.self_attn.v_proj.lora_A.weight", "blk.2.attn_v.weight", "A"],
    ["base_model.model.model.layers.3.self_attn.o_proj.lora_B.weight", "blk.3.attn_output.weight", "B"],
    ["base_model.model.model.layers.4.mlp.gate_proj.lora_A.weight", "blk.4.ffn_gate.weight", "A"],
    ["base_model.model.model.layers.5.mlp.up_proj.lora_A.default.weight", "blk.5.ffn_up.weight", "A"],
    ["model.layers.6.mlp.down_proj.lora_B.weight", "blk.6.ffn_down.weight", "B"],
    ["base_model.model.lm_head.lora_B.weight", "output.weight", "B"],
  ])("maps %s to %s", (name, gguf, part) => {
    const parsed = parsePeftTensorName(name);
    expect(parsed).toMatchObject({ kind: "lora", part });
    expect(parsed.kind === "lora" ? ggufTensorForModule(parsed.module) : undefined).toBe(gguf);
  });

  it("classifies what is not a plain LoRA pair", () => {
    expect(parsePeftTensorName("base_model.model.model.layers.0.self_attn.q_proj.lora_magnitude_vector")).toMatchObject({
      kind: "dora_magnitude",
    });
    expect(parsePeftTensorName("base_model.model.model.layers.0.self_attn.q_proj.bias")).toMatchObject({ kind: "bias" });
    expect(parsePeftTensorName("base_model.model.model.layers.0.self_attn.q_proj.lora_B.bias")).toMatchObject({ kind: "bias" });
    expect(parsePeftTensorName("base_model.model.model.embed_tokens.lora_embedding_A")).toMatchObject({ kind: "embedding_lora" });
    expect(parsePeftTensorName("base_model.model.model.embed_tokens.weight")).toEqual({
      kind: "full_weight",
      module: "model.embed_tokens",
      vocabulary: true,
    });
    expect(parsePeftTensorName("base_model.model.lm_head.modules_to_save.default.weight")).toEqual({
      kind: "full_weight",
      module: "lm_head",
      vocabulary: true,
    });
    expect(parsePeftTensorName("base_model.model.model.norm.weight")).toEqual({
      kind: "full_weight",
      module: "model.norm",
      vocabulary: false,
    });
    expect(ggufTensorForModule("model.layers.0.self_attn.rotary_emb")).toBeUndefined();
  });
});

describe("RoPE permutation", () => {
  const rows = (n: number) => Float32Array.from({ length: n }, (_, i) => i);
  it("reorders each head's rows from halves to interleaved pairs, as convert_hf_to_gguf does", () => {
    // reshape(n_head, 2, D/2, in).swapaxes(1, 2): 2 heads of 4 rows, 1 column.
    expect([...permuteRopeRows(rows(8), 8, 1, 2)]).toEqual([0, 2, 1, 3, 4, 6, 5, 7]);
    // 1 head of 8 rows.
    expect([...permuteRopeRows(rows(8), 8, 1, 1)]).toEqual([0, 4, 1, 5, 2, 6, 3, 7]);
    // Whole rows move: 2 columns.
    expect([...permuteRopeRows(Float32Array.from([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5]), 4, 2, 1)]).toEqual([0, 0.5, 2, 2.5, 1, 1.5, 3, 3.5]);
    expect(() => permuteRopeRows(rows(6), 6, 1, 2)).toThrow(RangeError);
  });
});

describe("convertPeftToGguf output", () => {
  it("writes a GGUF LoRA: STRING types, FLOAT32 alpha, [in, r] / [r, out] dims, A as-is, llama q/k lora_B permuted", async () => {
    const adapterDir = await adapter();
    const outPath = out();
    const result = await convertPeftToGguf({ adapterDir, outPath, baseModelPath: llamaBase });
    expect(result).toMatchObject({ architecture: "llama", alpha: 8, rank: 4, rsLora: false, validated: true, rescaled: [] });
    expect(result.tensors).toHaveLength(14);
    expect(result.permuted).toEqual(["blk.0.attn_k.weight", "blk.0.attn_q.weight", "blk.1.attn_k.weight", "blk.1.attn_q.weight"]);

    const header = await readGgufHeader(outPath);
    expect(header.metadata.get("general.type")).toEqual({ type: GgufValueType.STRING, value: "adapter" });
    expect(header.metadata.get("adapter.type")).toEqual({ type: GgufValueType.STRING, value: "lora" });
    expect(header.metadata.get("general.architecture")).toEqual({ type: GgufValueType.STRING, value: "llama" });
    expect(header.metadata.get("adapter.lora.alpha")).toEqual({ type: GgufValueType.FLOAT32, value: 8 });
    const dims = (name: string) => header.tensors.find((t) => t.name === name)?.dims;
    expect(dims("blk.0.attn_k.weight.lora_a")).toEqual([64, 4]); // PEFT A (4, 64) reversed
    expect(dims("blk.0.attn_k.weight.lora_b")).toEqual([4, 32]); // PEFT B (32, 4) reversed
    expect(dims("blk.1.ffn_down.weight.lora_a")).toEqual([128, 4]);

    const peft = await SafetensorsFile.read(join(adapterDir, "adapter_model.safetensors"));
    const source = (module: string, part: "A" | "B") => peft.values(`base_model.model.model.layers.0.${module}.lora_${part}.weight`);
    expect(await ggufValues(header, "blk.0.attn_q.weight.lora_a")).toEqual(source("self_attn.q_proj", "A")); // no transpose
    expect(await ggufValues(header, "blk.0.attn_v.weight.lora_b")).toEqual(source("self_attn.v_proj", "B")); // v: as-is
    expect(await ggufValues(header, "blk.0.attn_q.weight.lora_b")).toEqual(permuteRopeRows(source("self_attn.q_proj", "B"), 64, 4, 4));
    expect(await ggufValues(header, "blk.0.attn_k.weight.lora_b")).toEqual(permuteRopeRows(source("self_attn.k_proj", "B"), 32, 4, 2));
    expect(await ggufValues(header, "blk.0.attn_q.weight.lora_b")).not.toEqual(source("self_attn.q_proj", "B"));
  });

  it("leaves qwen2 q/k lora_B unpermuted", async () => {
    const adapterDir = await adapter({ architecture: "qwen2" });
    const outPath = out();
    const result = await convertPeftToGguf({ adapterDir, outPath, baseModelPath: qwenBase });
    expect(result.permuted).toEqual([]);
    const header = await readGgufHeader(outPath);
    expect(header.metadata.get("general.architecture")?.value).toBe("qwen2");
    const peft = await SafetensorsFile.read(join(adapterDir, "adapter_model.safetensors"));
    expect(await ggufValues(header, "blk.1.attn_q.weight.lora_b")).toEqual(
      peft.values("base_model.model.model.layers.1.self_attn.q_proj.lora_B.weight"),
    );
  });

  it("writes alpha·√r for rsLoRA (unlike llama.cpp's converter)", async () => {
    const outPath = out();
    const result = await convertPeftToGguf({
      adapterDir: await adapter({ useRslora: true, rank: 4, alpha: 8 }),
      outPath,
      baseModelPath: llamaBase,
    });
    expect(result.alpha).toBe(16);
    expect((await readGgufHeader(outPath)).metadata.get("adapter.lora.alpha")).toEqual({ type: GgufValueType.FLOAT32, value: 16 });
  });

  it("folds alpha_pattern into lora_B and can write F16", async () => {
    const adapterDir = await adapter({ alphaPattern: { v_proj: 32 } });
    const outPath = out();
    const result = await convertPeftToGguf({ adapterDir, outPath, baseModelPath: llamaBase, outputType: "F16" });
    expect(result.rescaled).toEqual(["blk.0.attn_v.weight", "blk.1.attn_v.weight"]);
    const header = await readGgufHeader(outPath);
    expect(header.tensors.every((t) => t.type === GgmlType.F16)).toBe(true);
    const peft = await SafetensorsFile.read(join(adapterDir, "adapter_model.safetensors"));
    const b = peft.values("base_model.model.model.layers.0.self_attn.v_proj.lora_B.weight");
    const written = await ggufValues(header, "blk.0.attn_v.weight.lora_b");
    written.forEach((v, i) => expect(v).toBeCloseTo((b[i] ?? 0) * 4, 2)); // (32/4) / (8/4) = 4
  });

  it("gives the same file without a base model when architecture and head counts are given", async () => {
    const adapterDir = await adapter();
    const [withBase, without] = [out(), out()];
    await convertPeftToGguf({ adapterDir, outPath: withBase, baseModelPath: llamaBase });
    const result = await convertPeftToGguf({ adapterDir, outPath: without, architecture: "llama", headCount: 4, headCountKv: 2 });
    expect(result.validated).toBe(false);
    expect((await readFile(without)).equals(await readFile(withBase))).toBe(true);
  });
});

describe("convertPeftToGguf refusals", () => {
  async function refusal(options: Partial<ConvertPeftOptions> & { adapterDir: string }): Promise<PeftConversionError> {
    const outPath = out();
    const error = await convertPeftToGguf({ outPath, baseModelPath: llamaBase, ...options }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PeftConversionError);
    await expect(stat(outPath)).rejects.toThrow(); // nothing written
    return error as PeftConversionError;
  }

  async function editConfig(adapterDir: string, changes: Record<string, unknown>): Promise<string> {
    const path = join(adapterDir, "adapter_config.json");
    await writeFile(path, JSON.stringify({ ...JSON.parse(await readFile(path, "utf8")), ...changes }));
    return adapterDir;
  }

  const CASES: Array<[string, () => Promise<Partial<ConvertPeftOptions> & { adapterDir: string }>, PeftRefusalReason, RegExp]> = [
    ["DoRA (use_dora)", async () => ({ adapterDir: await adapter({ useDora: true }) }), "dora", /use_dora is true; DoRA/],
    [
      "DoRA magnitude tensors under a config without use_dora",
      async () => ({ adapterDir: await editConfig(await adapter({ useDora: true }), { use_dora: false }) }),
      "dora",
      /lora_magnitude_vector" is a DoRA magnitude vector/,
    ],
    ["bias=all", async () => ({ adapterDir: await adapter({ bias: "all" }) }), "bias", /bias is "all"; the adapter trained biases/],
    ["bias=lora_only", async () => ({ adapterDir: await adapter({ bias: "lora_only" }) }), "bias", /bias is "lora_only"/],
    [
      "bias tensors under bias=none",
      async () => ({ adapterDir: await editConfig(await adapter({ bias: "all" }), { bias: "none" }) }),
      "bias",
      /q_proj\.bias" is a trained bias/,
    ],
    [
      "modules_to_save",
      async () => ({ adapterDir: await adapter({ modulesToSave: ["norm"] }) }),
      "modules_to_save",
      /modules_to_save is \["norm"\]; those modules are full fine-tuned copies/,
    ],
    [
      "a full non-vocabulary weight without modules_to_save in the config",
      async () => ({ adapterDir: await editConfig(await adapter({ modulesToSave: ["norm"] }), { modules_to_save: null }) }),
      "modules_to_save",
      /model\.norm\.weight" is a full weight/,
    ],
    [
      "a resized vocabulary (full embed_tokens/lm_head)",
      async () => ({ adapterDir: await adapter({ resizedVocabulary: 300 }) }),
      "resized_vocab",
      /embed_tokens\.weight" is a full model\.embed_tokens weight, saved when the vocabulary was resized/,
    ],
    [
      "an lm_head LoRA whose rows differ from the base vocabulary",
      async () => ({ adapterDir: await adapter({ targetModules: ["q_proj", "lm_head"], lmHeadRows: 300 }) }),
      "resized_vocab",
      /lm_head LoRA has 300 output rows but the base .* has a 270-token vocabulary/,
    ],
    [
      "an lm_head LoRA on a base with tied embeddings",
      async () => ({ adapterDir: await adapter({ architecture: "qwen2", targetModules: ["lm_head"] }), baseModelPath: tiedBase }),
      "tied_lm_head",
      /ties its output to token_embd \(no output\.weight\)/,
    ],
    [
      "an lm_head LoRA without a base model to check",
      async () => ({ adapterDir: await adapter({ targetModules: ["lm_head"] }), baseModelPath: undefined, architecture: "llama" }),
      "invalid",
      /pass baseModelPath/,
    ],
    [
      "a non-LoRA PEFT type",
      async () => ({ adapterDir: await editConfig(await adapter(), { peft_type: "LOHA" }) }),
      "unsupported",
      /peft_type is LOHA; only LORA/,
    ],
    [
      "fan_in_fan_out",
      async () => ({ adapterDir: await editConfig(await adapter(), { fan_in_fan_out: true }) }),
      "unsupported",
      /fan_in_fan_out is true/,
    ],
    [
      "an unsupported architecture",
      async () => ({ adapterDir: await adapter(), baseModelPath: undefined, architecture: "gemma" as "llama" }),
      "unsupported",
      /architecture "gemma" is not supported/,
    ],
    [
      "an architecture that contradicts the base",
      async () => ({ adapterDir: await adapter(), architecture: "qwen2" }),
      "invalid",
      /architecture "qwen2" was given but the base model/,
    ],
    [
      "llama q/k LoRA with no way to know the head counts",
      async () => ({ adapterDir: await adapter(), baseModelPath: undefined, architecture: "llama" }),
      "invalid",
      /needs the head counts for the RoPE permutation/,
    ],
    ["a directory that is not a PEFT adapter", async () => ({ adapterDir: dir }), "invalid", /cannot read adapter_config\.json/],
  ];
  it.each(CASES)("refuses %s", async (_what, setup, reason, message) => {
    const error = await refusal(await setup());
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(message);
  });

  it("refuses adapter_model.bin and LoRA on the token embeddings", async () => {
    const binOnly = join(dir, "bin-only");
    await mkdir(binOnly);
    await writeFile(join(binOnly, "adapter_config.json"), JSON.stringify({ peft_type: "LORA", r: 4, lora_alpha: 8 }));
    await writeFile(join(binOnly, "adapter_model.bin"), "pickle");
    expect((await refusal({ adapterDir: binOnly })).message).toMatch(
      /adapter_model\.bin \(pickle\) is not supported; save the adapter with safe_serialization=True/,
    );

    const embedding = await adapter();
    await writeSafetensorsFile(join(embedding, "adapter_model.safetensors"), [
      { name: "base_model.model.model.embed_tokens.lora_embedding_A", dtype: "F32", shape: [4, 270], values: new Float32Array(4 * 270) },
      { name: "base_model.model.model.embed_tokens.lora_embedding_B", dtype: "F32", shape: [64, 4], values: new Float32Array(64 * 4) },
    ]);
    const error = await refusal({ adapterDir: embedding });
    expect(error.reason).toBe("unsupported");
    expect(error.message).toMatch(/LoRA on the token embeddings/);

    const corrupt = await adapter();
    await writeFile(join(corrupt, "adapter_model.safetensors"), "not safetensors at all");
    const corruptError = await refusal({ adapterDir: corrupt });
    expect(corruptError.reason).toBe("invalid");
    expect(corruptError.message).toContain(join(corrupt, "adapter_model.safetensors"));
  });

  it("checks the result against the base and removes it when it does not fit", async () => {
    const deep = await adapter();
    await writeSafetensorsFile(join(deep, "adapter_model.safetensors"), [
      { name: "base_model.model.model.layers.5.mlp.up_proj.lora_A.weight", dtype: "F32", shape: [4, 64], values: new Float32Array(256) },
      { name: "base_model.model.model.layers.5.mlp.up_proj.lora_B.weight", dtype: "F32", shape: [128, 4], values: new Float32Array(512) },
    ]);
    const error = await refusal({ adapterDir: deep });
    expect(error.message).toMatch(/does not fit the base model: .*"blk\.5\.ffn_up\.weight" does not exist in the model/);
  });
});
