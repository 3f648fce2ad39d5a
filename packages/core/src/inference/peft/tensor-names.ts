/**
 * PEFT tensor names and their GGUF counterparts for llama and qwen2 (both use the Hugging Face
 * llama module layout). A PEFT adapter saves `base_model.model.<module>.lora_A.weight` (r, in)
 * and `.lora_B.weight` (out, r); llama.cpp wants `<gguf tensor>.lora_a` / `.lora_b`.
 */
const PROJECTIONS: ReadonlyMap<string, string> = new Map([
  ["self_attn.q_proj", "attn_q"],
  ["self_attn.k_proj", "attn_k"],
  ["self_attn.v_proj", "attn_v"],
  ["self_attn.o_proj", "attn_output"],
  ["mlp.gate_proj", "ffn_gate"],
  ["mlp.up_proj", "ffn_up"],
  ["mlp.down_proj", "ffn_down"],
]);

/** The GGUF weight a Hugging Face module maps to, e.g. `model.layers.3.self_attn.o_proj` → `blk.3.attn_output.weight`. */
export function ggufTensorForModule(module: string): string | undefined {
  if (module === "lm_head") return "output.weight";
  const match = /^model\.layers\.(\d+)\.(.+)$/.exec(module);
  if (match === null) return undefined;
  const [, layer, projection = ""] = match;
  const gguf = PROJECTIONS.get(projection);
  return gguf === undefined ? undefined : `blk.${layer}.${gguf}.weight`;
}

export type PeftTensorName =
  /** lora_A or lora_B of a linear module. */
  | { readonly kind: "lora"; readonly module: string; readonly part: "A" | "B" }
  /** lora_embedding_A/B of an embedding module. */
  | { readonly kind: "embedding_lora"; readonly module: string }
  /** DoRA's magnitude vector. */
  | { readonly kind: "dora_magnitude"; readonly module: string }
  /** A trained bias (bias="all"/"lora_only", or lora_bias). */
  | { readonly kind: "bias"; readonly module: string }
  /** A full weight: modules_to_save, or a resized embed_tokens / lm_head. */
  | { readonly kind: "full_weight"; readonly module: string; readonly vocabulary: boolean };

/**
 * Classifies a tensor name of `adapter_model.safetensors`. The `base_model.model.` prefix is
 * optional, and an adapter name between `lora_A` and `.weight` (`lora_A.default.weight`) is
 * accepted. `module` is the Hugging Face module path without the prefix.
 */
export function parsePeftTensorName(name: string): PeftTensorName {
  const bare = name.replace(/^base_model\.model\./, "");
  const dora = /^(.*)\.lora_magnitude_vector(?:\..*)?$/.exec(bare);
  if (dora !== null) return { kind: "dora_magnitude", module: dora[1] ?? "" };
  const lora = /^(.*)\.lora_(A|B)(?:\.[\w-]+)?\.(weight|bias)$/.exec(bare);
  if (lora !== null) {
    const module = lora[1] ?? "";
    return lora[3] === "bias" ? { kind: "bias", module } : { kind: "lora", module, part: lora[2] === "A" ? "A" : "B" };
  }
  const embedding = /^(.*)\.lora_embedding_(A|B)(?:\.[\w-]+)?$/.exec(bare);
  if (embedding !== null) return { kind: "embedding_lora", module: embedding[1] ?? "" };
  const module = bare
    .replace(/\.(weight|bias)$/, "")
    .replace(/\.modules_to_save(?:\.[\w-]+)?$/, "")
    .replace(/\.original_module$/, "");
  if (bare.endsWith(".bias")) return { kind: "bias", module };
  return { kind: "full_weight", module, vocabulary: /(^|\.)(embed_tokens|lm_head)$/.test(module) };
}
