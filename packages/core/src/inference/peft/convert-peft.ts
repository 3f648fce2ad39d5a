import { rm, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import type { Logger } from "../../logger.js";
import { GgmlType } from "../gguf/ggml-type.js";
import { ggufValue, metadataLayerNumber, metadataString } from "../gguf/metadata-values.js";
import { describeProblems } from "../gguf/problems.js";
import { readGgufHeader } from "../gguf/reader.js";
import type { GgufHeader, GgufMetadataValue } from "../gguf/types.js";
import { validateLoraAdapter } from "../gguf/validate-lora.js";
import { writeGgufFile } from "../gguf/writer.js";
import type { GgufTensorToWrite } from "../gguf/writer.js";
import { PeftConversionError } from "./conversion-error.js";
import { moduleAlpha, readPeftConfig } from "./peft-config.js";
import type { PeftLoraConfig } from "./peft-config.js";
import { permuteRopeRows } from "./rope-permutation.js";
import { SafetensorsFile } from "./safetensors.js";
import { ggufTensorForModule, parsePeftTensorName } from "./tensor-names.js";

export const PEFT_ARCHITECTURES = ["llama", "qwen2"] as const;
export type PeftArchitecture = (typeof PEFT_ARCHITECTURES)[number];

export interface ConvertPeftOptions {
  /** Directory with `adapter_config.json` and `adapter_model.safetensors`. */
  adapterDir: string;
  /** Where to write the GGUF LoRA. */
  outPath: string;
  /**
   * The base GGUF model. Gives the architecture and head counts, lets lm_head LoRA and vocabulary
   * size be checked, and the result is validated against it before this function returns.
   */
  baseModelPath?: string;
  /** Needed when no base model is given. */
  architecture?: PeftArchitecture;
  /** n_head and n_head_kv for the llama RoPE permutation when no base model is given. */
  headCount?: number;
  headCountKv?: number;
  /** GGUF type of lora_a / lora_b; default F32 (exact for F32, F16 and BF16 input). */
  outputType?: "F32" | "F16";
  /** `general.name`; default the adapter directory's name. */
  name?: string;
  logger?: Logger;
}

export interface ConvertPeftResult {
  readonly outPath: string;
  readonly architecture: PeftArchitecture;
  /** `adapter.lora.alpha` as written (lora_alpha, or lora_alpha·√r for rsLoRA). */
  readonly alpha: number;
  /** The config's r. */
  readonly rank: number;
  readonly rsLora: boolean;
  /** GGUF base tensors that received a lora_a/lora_b pair. */
  readonly tensors: readonly string[];
  /** Base tensors whose lora_b rows were RoPE-permuted (llama q/k). */
  readonly permuted: readonly string[];
  /** Base tensors whose lora_b absorbed a per-module scale (alpha_pattern, rank_pattern with rsLoRA). */
  readonly rescaled: readonly string[];
  /** True when the result was checked against `baseModelPath`. */
  readonly validated: boolean;
}

/**
 * Converts a PEFT LoRA adapter (llama or qwen2) into a GGUF LoRA llama.cpp can apply.
 *
 * - Names: `base_model.model.model.layers.N.self_attn.q_proj.lora_A.weight` →
 *   `blk.N.attn_q.weight.lora_a` (k/v/o → attn_k/attn_v/attn_output, mlp gate/up/down →
 *   ffn_gate/ffn_up/ffn_down, lm_head → output.weight).
 * - Layout: PEFT lora_A (r, in) and lora_B (out, r) are written as-is; GGUF dims are the PyTorch
 *   shape reversed ([in, r] and [r, out]), which is what llama.cpp multiplies. No transpose.
 * - llama: lora_B of q_proj / k_proj gets the RoPE row permutation convert_hf_to_gguf applies to
 *   the base q/k weights (n_head for q, n_head_kv for k); qwen2 needs none.
 * - Scale: llama.cpp applies user_scale × alpha / r with r = the tensor's rank. PEFT applies
 *   lora_alpha / r, or lora_alpha / √r with rsLoRA. So alpha is written as FLOAT32 lora_alpha,
 *   or lora_alpha·√r for rsLoRA (llama.cpp's own converter ignores use_rslora and gets this
 *   wrong). Where a module's PEFT scale differs from alpha / r_module (alpha_pattern, or
 *   rank_pattern with rsLoRA), the ratio is multiplied into that module's lora_B, which is exact.
 * - Refused, with the reason: DoRA, trained biases, modules_to_save / full weights, resized
 *   vocabularies, lm_head LoRA on a base with tied embeddings, embedding LoRA, fan_in_fan_out,
 *   other PEFT types and architectures.
 */
export async function convertPeftToGguf(options: ConvertPeftOptions): Promise<ConvertPeftResult> {
  const configPath = join(options.adapterDir, "adapter_config.json");
  const config = await readPeftConfig(configPath);
  refuseByConfig(config, configPath);

  const weightsPath = join(options.adapterDir, "adapter_model.safetensors");
  if (!(await exists(weightsPath))) {
    const binary = await exists(join(options.adapterDir, "adapter_model.bin"));
    throw new PeftConversionError(
      binary ? "unsupported" : "invalid",
      binary
        ? `${options.adapterDir}: adapter_model.bin (pickle) is not supported; save the adapter with safe_serialization=True to get adapter_model.safetensors`
        : `${options.adapterDir}: no adapter_model.safetensors`,
    );
  }
  const weights = await SafetensorsFile.read(weightsPath).catch((error: unknown) => {
    throw new PeftConversionError("invalid", error instanceof Error ? error.message : String(error));
  });
  const base = options.baseModelPath === undefined ? undefined : await readGgufHeader(options.baseModelPath);
  const architecture = resolveArchitecture(options, base);
  const heads = resolveHeads(options, base, architecture);

  const pairs = collectPairs(weights);
  if (pairs.size === 0) throw new PeftConversionError("invalid", `${weightsPath}: no lora_A/lora_B tensors found`);
  checkOutputHead(pairs, base, weightsPath);

  const rank = config.r;
  const rsLora = config.use_rslora;
  // The alpha llama.cpp divides by each tensor's rank: PEFT's scale × r at the config's rank.
  const alpha = rsLora ? config.lora_alpha * Math.sqrt(rank) : config.lora_alpha;
  if (!(alpha > 0) || !Number.isFinite(alpha))
    throw new PeftConversionError("invalid", `${configPath}: lora_alpha must be positive, got ${config.lora_alpha}`);

  const outputType = options.outputType === "F16" ? GgmlType.F16 : GgmlType.F32;
  const tensors: GgufTensorToWrite[] = [];
  const permuted: string[] = [];
  const rescaled: string[] = [];
  for (const [target, pair] of pairs) {
    const aInfo = weights.tensors.get(pair.a);
    const bInfo = weights.tensors.get(pair.b);
    const [r, inputs] = (aInfo?.shape ?? []) as [number?, number?];
    const [outputs, rB] = (bInfo?.shape ?? []) as [number?, number?];
    if (
      r === undefined ||
      inputs === undefined ||
      outputs === undefined ||
      rB === undefined ||
      aInfo?.shape.length !== 2 ||
      bInfo?.shape.length !== 2
    ) {
      throw new PeftConversionError("invalid", `${weightsPath}: ${pair.module}: lora_A and lora_B must be 2-D`);
    }
    if (r !== rB)
      throw new PeftConversionError("invalid", `${weightsPath}: ${pair.module}: lora_A has rank ${r} but lora_B has rank ${rB}`);
    let b = tensorValues(weights, pair.b);

    // PEFT's scale for this module vs what llama.cpp will apply (alpha / r); fold the ratio into B.
    const moduleScale = rsLora ? moduleAlpha(config, pair.module) / Math.sqrt(r) : moduleAlpha(config, pair.module) / r;
    const factor = (moduleScale * r) / alpha;
    if (Math.abs(factor - 1) > 1e-9) {
      b = b.map((v) => v * factor);
      rescaled.push(target);
    }
    if (target === "output.weight") checkVocabulary(base, outputs, weightsPath);
    if (architecture === "llama" && /\.attn_[qk]\.weight$/.test(target)) {
      const headCount = target.includes(".attn_q.") ? heads.q : heads.k;
      if (!(headCount > 0) || outputs % (headCount * 2) !== 0) {
        throw new PeftConversionError(
          "invalid",
          headCount > 0
            ? `${weightsPath}: ${pair.module} has ${outputs} output rows, which do not split into ${headCount} heads of an even size (wrong head count?)`
            : `${weightsPath}: llama q_proj/k_proj LoRA needs the head counts for the RoPE permutation: pass baseModelPath (recommended) or headCount and headCountKv`,
        );
      }
      b = permuteRopeRows(b, outputs, r, headCount);
      permuted.push(target);
    }
    tensors.push({ name: `${target}.lora_a`, dims: [inputs, r], type: outputType, values: tensorValues(weights, pair.a) });
    tensors.push({ name: `${target}.lora_b`, dims: [r, outputs], type: outputType, values: b });
  }

  const metadata: Array<[string, GgufMetadataValue]> = [
    ["general.architecture", ggufValue.str(architecture)],
    ["general.type", ggufValue.str("adapter")],
    ["general.name", ggufValue.str(options.name ?? basename(resolve(options.adapterDir)))],
    ["adapter.type", ggufValue.str("lora")],
    ["adapter.lora.alpha", ggufValue.f32(alpha)],
  ];
  if (typeof config.base_model_name_or_path === "string") {
    metadata.push(
      ["general.base_model.count", ggufValue.u32(1)],
      ["general.base_model.0.name", ggufValue.str(config.base_model_name_or_path)],
    );
  }
  await writeGgufFile(options.outPath, { metadata, tensors });

  if (base !== undefined) {
    const problems = validateLoraAdapter(await readGgufHeader(options.outPath), base);
    if (problems.length > 0) {
      await rm(options.outPath, { force: true });
      throw new PeftConversionError("invalid", `the converted adapter does not fit the base model: ${describeProblems(problems)}`);
    }
  }
  options.logger?.info("converted PEFT adapter to GGUF", {
    adapterDir: options.adapterDir,
    outPath: options.outPath,
    architecture,
    tensors: pairs.size,
    alpha,
    rsLora,
  });
  return {
    outPath: options.outPath,
    architecture,
    alpha,
    rank,
    rsLora,
    tensors: [...pairs.keys()],
    permuted,
    rescaled,
    validated: base !== undefined,
  };
}

function refuseByConfig(config: PeftLoraConfig, path: string): void {
  if (config.peft_type.toUpperCase() !== "LORA") {
    throw new PeftConversionError("unsupported", `${path}: peft_type is ${config.peft_type}; only LORA adapters can be converted`);
  }
  if (config.use_dora) {
    throw new PeftConversionError(
      "dora",
      `${path}: use_dora is true; DoRA rescales each weight column by a learned magnitude, which a GGUF LoRA cannot express. Merge the adapter into the model instead.`,
    );
  }
  if (config.bias !== "none" || config.lora_bias) {
    const what = config.bias !== "none" ? `bias is "${config.bias}"` : "lora_bias is true";
    throw new PeftConversionError(
      "bias",
      `${path}: ${what}; the adapter trained biases, which a GGUF LoRA (A and B only) would silently drop. Retrain with bias="none" or merge the adapter.`,
    );
  }
  if (config.modules_to_save !== null && config.modules_to_save !== undefined && config.modules_to_save.length > 0) {
    throw new PeftConversionError(
      "modules_to_save",
      `${path}: modules_to_save is ${JSON.stringify(config.modules_to_save)}; those modules are full fine-tuned copies, not low-rank deltas, and a GGUF LoRA cannot carry them. Merge the adapter into the model instead.`,
    );
  }
  if (config.trainable_token_indices !== undefined && config.trainable_token_indices !== null) {
    throw new PeftConversionError(
      "resized_vocab",
      `${path}: trainable_token_indices is set; trained token embeddings cannot be carried by a GGUF LoRA.`,
    );
  }
  if (config.fan_in_fan_out) {
    throw new PeftConversionError(
      "unsupported",
      `${path}: fan_in_fan_out is true (Conv1D layers); llama and qwen2 use Linear layers, so this adapter is not for them.`,
    );
  }
  if (config.target_parameters !== null && config.target_parameters !== undefined && config.target_parameters.length > 0) {
    throw new PeftConversionError("unsupported", `${path}: target_parameters (LoRA on raw parameters) is not supported.`);
  }
}

function resolveArchitecture(options: ConvertPeftOptions, base: GgufHeader | undefined): PeftArchitecture {
  const fromBase = base === undefined ? undefined : metadataString(base, "general.architecture");
  if (fromBase !== undefined && options.architecture !== undefined && fromBase !== options.architecture) {
    throw new PeftConversionError(
      "invalid",
      `architecture "${options.architecture}" was given but the base model ${base?.file} is "${fromBase}"`,
    );
  }
  const architecture = options.architecture ?? fromBase;
  if (architecture === undefined) {
    throw new PeftConversionError("invalid", "the architecture is unknown: pass baseModelPath (recommended) or architecture");
  }
  if (!(PEFT_ARCHITECTURES as readonly string[]).includes(architecture)) {
    throw new PeftConversionError(
      "unsupported",
      `architecture "${architecture}" is not supported; the converter handles ${PEFT_ARCHITECTURES.join(" and ")}`,
    );
  }
  return architecture as PeftArchitecture;
}

function resolveHeads(options: ConvertPeftOptions, base: GgufHeader | undefined, architecture: PeftArchitecture): { q: number; k: number } {
  const q = options.headCount ?? (base === undefined ? undefined : metadataLayerNumber(base, `${architecture}.attention.head_count`));
  const k =
    options.headCountKv ?? (base === undefined ? undefined : metadataLayerNumber(base, `${architecture}.attention.head_count_kv`)) ?? q;
  return { q: q ?? 0, k: k ?? 0 };
}

interface PeftPair {
  module: string;
  a: string;
  b: string;
}

/** Groups lora_A/lora_B by GGUF target, refusing everything that is not a plain LoRA pair. */
function collectPairs(weights: SafetensorsFile): Map<string, PeftPair> {
  const found = new Map<string, { module: string; a?: string; b?: string }>();
  const file = weights.file;
  for (const name of weights.tensors.keys()) {
    const parsed = parsePeftTensorName(name);
    switch (parsed.kind) {
      case "dora_magnitude":
        throw new PeftConversionError(
          "dora",
          `${file}: "${name}" is a DoRA magnitude vector; DoRA cannot be expressed as a GGUF LoRA. Merge the adapter into the model instead.`,
        );
      case "bias":
        throw new PeftConversionError(
          "bias",
          `${file}: "${name}" is a trained bias, which a GGUF LoRA would silently drop. Retrain with bias="none" or merge the adapter.`,
        );
      case "embedding_lora":
        throw new PeftConversionError(
          "unsupported",
          `${file}: "${name}" is a LoRA on the token embeddings (${parsed.module}); this converter supports LoRA on attention, MLP and lm_head only.`,
        );
      case "full_weight":
        if (parsed.vocabulary) {
          throw new PeftConversionError(
            "resized_vocab",
            `${file}: "${name}" is a full ${parsed.module} weight, saved when the vocabulary was resized or the embeddings trained; the base GGUF's vocabulary would not match. Merge the adapter and convert the merged model instead.`,
          );
        }
        throw new PeftConversionError(
          "modules_to_save",
          `${file}: "${name}" is a full weight (modules_to_save or a trained non-LoRA module), not a low-rank delta; a GGUF LoRA cannot carry it.`,
        );
      case "lora": {
        const target = ggufTensorForModule(parsed.module);
        if (target === undefined) {
          throw new PeftConversionError(
            "unsupported",
            `${file}: "${name}" targets ${parsed.module}, which has no llama/qwen2 GGUF counterpart (supported: q/k/v/o_proj, gate/up/down_proj, lm_head)`,
          );
        }
        const entry = found.get(target) ?? { module: parsed.module };
        if (parsed.part === "A") entry.a = name;
        else entry.b = name;
        found.set(target, entry);
        break;
      }
    }
  }
  const pairs = new Map<string, PeftPair>();
  for (const [target, entry] of [...found].sort(([x], [y]) => compareTensorNames(x, y))) {
    if (entry.a === undefined || entry.b === undefined) {
      throw new PeftConversionError(
        "invalid",
        `${file}: ${entry.module} has lora_${entry.a === undefined ? "B" : "A"} but no lora_${entry.a === undefined ? "A" : "B"}`,
      );
    }
    pairs.set(target, { module: entry.module, a: entry.a, b: entry.b });
  }
  return pairs;
}

/** lm_head LoRA needs an untied output.weight of the base's vocabulary size. */
function checkOutputHead(pairs: ReadonlyMap<string, PeftPair>, base: GgufHeader | undefined, file: string): void {
  if (!pairs.has("output.weight")) return;
  if (base === undefined) {
    throw new PeftConversionError(
      "invalid",
      `${file}: the adapter has an lm_head LoRA; pass baseModelPath so the converter can check that the base has its own output.weight (not tied to the embeddings) of the same vocabulary size`,
    );
  }
  const output = base.tensors.find((t) => t.name === "output.weight");
  if (output === undefined) {
    throw new PeftConversionError(
      "tied_lm_head",
      `${file}: the adapter has an lm_head LoRA but the base ${base.file} ties its output to token_embd (no output.weight); llama.cpp has no separate output weight to adapt. Merge the adapter into the model instead.`,
    );
  }
}

/** An lm_head LoRA's output rows must be the base's vocabulary (otherwise it was resized). */
function checkVocabulary(base: GgufHeader | undefined, rows: number, file: string): void {
  const vocabulary = base?.tensors.find((t) => t.name === "output.weight")?.dims[1];
  if (vocabulary !== undefined && rows !== vocabulary) {
    throw new PeftConversionError(
      "resized_vocab",
      `${file}: the lm_head LoRA has ${rows} output rows but the base ${base?.file} has a ${vocabulary}-token vocabulary; the adapter was trained on a resized vocabulary. Merge it and convert the merged model instead.`,
    );
  }
}

/** blk.2 before blk.10; within a block, tensors in name order. */
function compareTensorNames(x: string, y: string): number {
  const key = (name: string) => name.replace(/\d+/g, (d) => d.padStart(6, "0"));
  return key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0;
}

/** Values as float32; a dtype other than F32/F16/BF16 (e.g. a quantized QLoRA export) is refused. */
function tensorValues(weights: SafetensorsFile, name: string): Float32Array {
  try {
    return weights.values(name);
  } catch (error) {
    throw new PeftConversionError("unsupported", error instanceof Error ? error.message : String(error));
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
