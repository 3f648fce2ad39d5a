/** Why a PEFT adapter cannot become a GGUF LoRA that llama.cpp applies faithfully. */
export type PeftRefusalReason =
  /** Weight-decomposed LoRA: a per-column magnitude llama.cpp cannot apply. */
  | "dora"
  /** Trained biases: GGUF LoRA carries only A and B, so the bias change would be lost. */
  | "bias"
  /** Full copies of modules (modules_to_save): not a low-rank delta. */
  | "modules_to_save"
  /** New or resized token embeddings / output rows: the base model's vocabulary differs. */
  | "resized_vocab"
  /** lm_head LoRA on a base whose output shares token_embd: llama.cpp has no output.weight to adapt. */
  | "tied_lm_head"
  /** An adapter kind, architecture or layout this converter does not handle. */
  | "unsupported"
  /** A missing or malformed file or option. */
  | "invalid";

/** The converter's refusals and input errors: the message says what was found and why it cannot be converted. */
export class PeftConversionError extends Error {
  override readonly name = "PeftConversionError";
  constructor(
    readonly reason: PeftRefusalReason,
    message: string,
  ) {
    super(message);
  }
}
