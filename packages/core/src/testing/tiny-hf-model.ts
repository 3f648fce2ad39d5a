import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeSafetensorsFile } from "../inference/peft/safetensors-writer.js";
import type { SafetensorsTensorToWrite } from "../inference/peft/safetensors-writer.js";
import { ggufTensorForModule } from "../inference/peft/tensor-names.js";
import { TINY_MODEL, tinyModel } from "./tiny-gguf.js";
import type { TinyArchitecture, TinyLlamaOptions, TinyVocabulary, TinyWeight } from "./tiny-gguf.js";

export interface TinyHfModelInfo {
  readonly dir: string;
  readonly architecture: TinyArchitecture;
  readonly vocabulary: TinyVocabulary;
  /** The weights by GGUF name, as `writeTinyLlamaGguf` returns them for the same options. */
  readonly weights: ReadonlyMap<string, TinyWeight>;
  /** What `config.json` holds. */
  readonly config: Readonly<Record<string, unknown>>;
}

const PROJECTIONS = [
  "self_attn.q_proj",
  "self_attn.k_proj",
  "self_attn.v_proj",
  "self_attn.o_proj",
  "mlp.gate_proj",
  "mlp.up_proj",
  "mlp.down_proj",
];

/**
 * The Hugging Face name of every tensor of the tiny model, with its GGUF name: llama and qwen2
 * share the llama module layout (tensor-names.ts maps the projections); qwen2 adds q/k/v biases.
 */
function hfTensorNames(architecture: TinyArchitecture, tied: boolean): Array<[hf: string, gguf: string]> {
  const names: Array<[string, string]> = [["model.embed_tokens.weight", "token_embd.weight"]];
  for (let layer = 0; layer < TINY_MODEL.blockCount; layer++) {
    const block = `model.layers.${layer}`;
    names.push([`${block}.input_layernorm.weight`, `blk.${layer}.attn_norm.weight`]);
    for (const projection of PROJECTIONS) {
      const gguf = ggufTensorForModule(`${block}.${projection}`);
      if (gguf === undefined) throw new Error(`no GGUF tensor for ${block}.${projection}`);
      names.push([`${block}.${projection}.weight`, gguf]);
      if (architecture === "qwen2" && /\.[qkv]_proj$/.test(projection)) {
        names.push([`${block}.${projection}.bias`, gguf.replace(/\.weight$/, ".bias")]);
      }
    }
    names.push([`${block}.post_attention_layernorm.weight`, `blk.${layer}.ffn_norm.weight`]);
  }
  names.push(["model.norm.weight", "output_norm.weight"]);
  if (!tied) names.push(["lm_head.weight", "output.weight"]);
  return names;
}

/**
 * Writes a Hugging Face checkpoint of the same model `writeTinyLlamaGguf` writes for the same
 * options (`LlamaForCausalLM` or `Qwen2ForCausalLM`, float32): `config.json`,
 * `generation_config.json` and `model.safetensors`. It has no tokenizer: training data are the
 * GGUF tokenizer's ids (LlamaTokenizer in packages/core/src/inference/llama-tokenizer.ts).
 */
export async function writeTinyHfModel(dir: string, options: TinyLlamaOptions = {}): Promise<TinyHfModelInfo> {
  const { architecture, vocabulary, weights } = tinyModel(options);
  const tied = options.tiedEmbeddings ?? false;
  const m = TINY_MODEL;
  const config: Record<string, unknown> = {
    architectures: [architecture === "qwen2" ? "Qwen2ForCausalLM" : "LlamaForCausalLM"],
    model_type: architecture,
    vocab_size: vocabulary.tokens.length,
    hidden_size: m.embeddingLength,
    intermediate_size: m.feedForwardLength,
    num_hidden_layers: m.blockCount,
    num_attention_heads: m.headCount,
    num_key_value_heads: m.headCountKv,
    head_dim: m.headDim,
    hidden_act: "silu",
    max_position_embeddings: options.contextLength ?? 2048,
    rms_norm_eps: m.rmsEpsilon,
    rope_theta: m.ropeFreqBase,
    attention_dropout: 0,
    bos_token_id: 1,
    eos_token_id: 2,
    tie_word_embeddings: tied,
    torch_dtype: "float32",
    use_cache: true,
    ...(architecture === "qwen2"
      ? { use_sliding_window: false, sliding_window: null, max_window_layers: m.blockCount }
      : { attention_bias: false, mlp_bias: false, pretraining_tp: 1 }),
  };
  const tensors: SafetensorsTensorToWrite[] = hfTensorNames(architecture, tied).map(([name, gguf]) => {
    const weight = weights.get(gguf);
    if (weight === undefined) throw new Error(`the tiny model has no ${gguf} for ${name}`);
    return { name, dtype: "F32", shape: weight.shape, values: weight.values };
  });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  await writeFile(
    join(dir, "generation_config.json"),
    `${JSON.stringify({ bos_token_id: 1, eos_token_id: 2, do_sample: false }, null, 2)}\n`,
  );
  await writeSafetensorsFile(join(dir, "model.safetensors"), tensors);
  return { dir, architecture, vocabulary, weights, config };
}
