import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { roundToBfloat16, roundToFloat16 } from "../inference/gguf/half-float.js";
import type { SafetensorsDtype } from "../inference/peft/safetensors.js";
import { writeSafetensorsFile } from "../inference/peft/safetensors-writer.js";
import type { SafetensorsTensorToWrite } from "../inference/peft/safetensors-writer.js";
import { TINY_MODEL, seededRandom, tinyBlockShapes, tinyVocabulary, uniformValues } from "./tiny-gguf.js";
import type { TinyArchitecture, TinyWeightDelta } from "./tiny-gguf.js";

export type PeftTargetModule = "q_proj" | "k_proj" | "v_proj" | "o_proj" | "gate_proj" | "up_proj" | "down_proj" | "lm_head";

/** Hugging Face module path (under `base_model.model.`) and GGUF tensor of each target in layer N. */
const MODULES: Readonly<Record<Exclude<PeftTargetModule, "lm_head">, { path: string; gguf: string }>> = {
  q_proj: { path: "self_attn.q_proj", gguf: "attn_q" },
  k_proj: { path: "self_attn.k_proj", gguf: "attn_k" },
  v_proj: { path: "self_attn.v_proj", gguf: "attn_v" },
  o_proj: { path: "self_attn.o_proj", gguf: "attn_output" },
  gate_proj: { path: "mlp.gate_proj", gguf: "ffn_gate" },
  up_proj: { path: "mlp.up_proj", gguf: "ffn_up" },
  down_proj: { path: "mlp.down_proj", gguf: "ffn_down" },
};

export interface TinyPeftOptions {
  /** PRNG seed of A and B; default 3. */
  seed?: number;
  /** Recorded as `base_model_name_or_path` (`tiny-llama` / `tiny-qwen2`); shapes are the same. */
  architecture?: TinyArchitecture;
  /** r; default 4. */
  rank?: number;
  /** lora_alpha; default 8. */
  alpha?: number;
  /** Default: the seven linear modules of each block. */
  targetModules?: readonly PeftTargetModule[];
  /** Stored dtype of the tensors; default F32. Deltas use the stored (rounded) values. */
  dtype?: SafetensorsDtype;
  useRslora?: boolean;
  /** Writes `use_dora: true` and lora_magnitude_vector tensors (to test the refusal). */
  useDora?: boolean;
  /** "all" / "lora_only" write trained `.bias` tensors (to test the refusal). */
  bias?: "none" | "all" | "lora_only";
  /** Listed in the config and written as full weights (`lm_head`, `embed_tokens`, `norm`). */
  modulesToSave?: readonly string[];
  /** Writes full embed_tokens and lm_head weights with this many rows (a resized vocabulary). */
  resizedVocabulary?: number;
  /** Rows of the lm_head LoRA's B; default the tiny vocabulary's size (`vocabularySize`). */
  lmHeadRows?: number;
  /** Vocabulary of the base model the adapter is for; default the tiny model's without FIM. */
  vocabularySize?: number;
  /** PEFT alpha_pattern / rank_pattern (keys match the end of a module path, e.g. "q_proj"). */
  alphaPattern?: Readonly<Record<string, number>>;
  rankPattern?: Readonly<Record<string, number>>;
  /** Amplitude of the uniform A and B values; default 0.3. */
  amplitude?: number;
}

export interface TinyPeftInfo {
  readonly dir: string;
  readonly config: Readonly<Record<string, unknown>>;
  /**
   * PEFT's own merge for every targeted module: scale·B·A in PyTorch layout (out × in) with
   * scale = alpha/r, or alpha/√r with rsLoRA (per module when patterns apply), computed in float64
   * from the values as stored. `writeTinyLlamaGguf(path, { mergedDeltas })` builds the reference.
   */
  readonly deltas: readonly TinyWeightDelta[];
}

/**
 * Writes a PEFT LoRA adapter directory for the tiny model: `adapter_config.json` and
 * `adapter_model.safetensors` with `base_model.model.model.layers.N.self_attn.q_proj.lora_A.weight`
 * (r, in) and `.lora_B.weight` (out, r), like `PeftModel.save_pretrained`. Options add the features
 * the converter must refuse (DoRA, biases, modules_to_save, a resized vocabulary).
 */
export async function writeTinyPeftAdapter(dir: string, options: TinyPeftOptions = {}): Promise<TinyPeftInfo> {
  const architecture = options.architecture ?? "llama";
  const rank = options.rank ?? 4;
  const alpha = options.alpha ?? 8;
  const dtype = options.dtype ?? "F32";
  const amplitude = options.amplitude ?? 0.3;
  const targets = options.targetModules ?? (Object.keys(MODULES) as PeftTargetModule[]);
  const vocabularySize = options.vocabularySize ?? tinyVocabulary().tokens.length;
  const random = seededRandom(options.seed ?? 3);
  const stored = (values: Float32Array) => (dtype === "F16" ? roundToFloat16(values) : dtype === "BF16" ? roundToBfloat16(values) : values);
  const d = TINY_MODEL.embeddingLength;

  const tensors: SafetensorsTensorToWrite[] = [];
  const deltas: TinyWeightDelta[] = [];
  const addLora = (module: string, gguf: string, out: number, inputs: number) => {
    const r = patternValue(options.rankPattern, module) ?? rank;
    const moduleAlpha = patternValue(options.alphaPattern, module) ?? alpha;
    const a = stored(uniformValues(random, r * inputs, amplitude));
    const b = stored(uniformValues(random, out * r, amplitude));
    const prefix = `base_model.model.${module}`;
    tensors.push({ name: `${prefix}.lora_A.weight`, dtype, shape: [r, inputs], values: a });
    tensors.push({ name: `${prefix}.lora_B.weight`, dtype, shape: [out, r], values: b });
    if (options.useDora === true)
      tensors.push({ name: `${prefix}.lora_magnitude_vector`, dtype, shape: [out], values: stored(uniformValues(random, out, 0.1, 1)) });
    if (options.bias !== undefined && options.bias !== "none")
      tensors.push({ name: `${prefix}.bias`, dtype, shape: [out], values: stored(uniformValues(random, out, 0.1)) });
    const scale = options.useRslora === true ? moduleAlpha / Math.sqrt(r) : moduleAlpha / r;
    deltas.push({ tensor: gguf, values: loraDelta(a, b, out, inputs, r, scale) });
  };

  const shapes = tinyBlockShapes();
  for (let layer = 0; layer < TINY_MODEL.blockCount; layer++) {
    for (const target of targets) {
      if (target === "lm_head") continue;
      const module = MODULES[target];
      const [out, inputs] = shapes.get(module.gguf) ?? [0, 0];
      addLora(`model.layers.${layer}.${module.path}`, `blk.${layer}.${module.gguf}.weight`, out, inputs);
    }
  }
  if (targets.includes("lm_head")) addLora("lm_head", "output.weight", options.lmHeadRows ?? vocabularySize, d);

  for (const module of options.modulesToSave ?? []) {
    const rows = module === "norm" ? [d] : [vocabularySize, d];
    const path = module === "lm_head" ? "lm_head" : `model.${module}`;
    tensors.push({
      name: `base_model.model.${path}.weight`,
      dtype,
      shape: rows,
      values: stored(
        uniformValues(
          random,
          rows.reduce((x, y) => x * y, 1),
          0.3,
        ),
      ),
    });
  }
  if (options.resizedVocabulary !== undefined) {
    const rows = options.resizedVocabulary;
    for (const path of ["model.embed_tokens", "lm_head"]) {
      tensors.push({
        name: `base_model.model.${path}.weight`,
        dtype,
        shape: [rows, d],
        values: stored(uniformValues(random, rows * d, 0.3)),
      });
    }
  }

  const config = {
    peft_type: "LORA",
    task_type: "CAUSAL_LM",
    base_model_name_or_path: `tiny-${architecture}`,
    r: rank,
    lora_alpha: alpha,
    lora_dropout: 0,
    target_modules: [...targets],
    bias: options.bias ?? "none",
    use_rslora: options.useRslora ?? false,
    use_dora: options.useDora ?? false,
    modules_to_save: options.modulesToSave === undefined ? null : [...options.modulesToSave],
    rank_pattern: { ...options.rankPattern },
    alpha_pattern: { ...options.alphaPattern },
    fan_in_fan_out: false,
    inference_mode: true,
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "adapter_config.json"), `${JSON.stringify(config, null, 2)}\n`);
  await writeSafetensorsFile(join(dir, "adapter_model.safetensors"), tensors);
  return { dir, config, deltas };
}

/** scale · B (out × r) · A (r × in), in float64, rounded once to float32. */
function loraDelta(a: Float32Array, b: Float32Array, out: number, inputs: number, r: number, scale: number): Float32Array {
  const delta = new Float32Array(out * inputs);
  for (let o = 0; o < out; o++) {
    for (let i = 0; i < inputs; i++) {
      let sum = 0;
      for (let k = 0; k < r; k++) sum += (b[o * r + k] ?? 0) * (a[k * inputs + i] ?? 0);
      delta[o * inputs + i] = scale * sum;
    }
  }
  return delta;
}

/** A pattern value whose key is the module path or its last components. */
function patternValue(patterns: Readonly<Record<string, number>> | undefined, module: string): number | undefined {
  for (const [key, value] of Object.entries(patterns ?? {})) {
    if (module === key || module.endsWith(`.${key}`)) return value;
  }
  return undefined;
}
