/**
 * The row permutation llama.cpp's convert_hf_to_gguf applies to the q_proj and k_proj weights of
 * llama-style models (LlamaModel.permute).
 *
 * Hugging Face's llama rotates the two halves of each head (dimension i pairs with i + D/2,
 * "rotate_half"); llama.cpp's llama rope rotates adjacent pairs (2i, 2i+1). Reordering the
 * output rows of W_q and W_k turns one into the other:
 *
 *   weights.reshape(n_head, 2, D/2, in).swapaxes(1, 2).reshape(out, in)
 *
 * i.e. within head h, output row h·D + 2i + j takes input row h·D + j·D/2 + i (j ∈ {0, 1}).
 * q uses n_head, k uses n_head_kv. A LoRA delta B·A of those weights must get the same row order,
 * and since permuting rows of B·A is permuting rows of B, only lora_B is permuted. qwen2 uses the
 * "neox" rope (halves, like Hugging Face), so its weights and lora_B are left alone.
 */
export function permuteRopeRows(values: Float32Array, rows: number, cols: number, heads: number): Float32Array {
  if (values.length !== rows * cols) throw new RangeError(`expected ${rows}×${cols} values, got ${values.length}`);
  if (heads <= 0 || rows % (heads * 2) !== 0) {
    throw new RangeError(`${rows} rows cannot be split into ${heads} heads of an even size`);
  }
  const headDim = rows / heads;
  const half = headDim / 2;
  const out = new Float32Array(values.length);
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < half; i++) {
      for (let j = 0; j < 2; j++) {
        const to = h * headDim + 2 * i + j;
        const from = h * headDim + j * half + i;
        out.set(values.subarray(from * cols, (from + 1) * cols), to * cols);
      }
    }
  }
  return out;
}
