import { metadataArray, metadataString } from "./gguf/metadata-values.js";
import type { GgufHeader } from "./gguf/types.js";
import type { PromptInput } from "./types.js";
import { alpacaPrompt } from "./prompt-formats.js";

/**
 * The most UTF-16 code units one token of this vocabulary can stand for, or undefined where that
 * cannot be read from the vocabulary alone. With it a prompt far too long for the context is
 * refused before llama.cpp tokenizes it: tokenizing is one synchronous native call that no
 * deadline can interrupt, and llama.cpp's SentencePiece tokenizer is superlinear on long runs
 * without spaces (400,000 characters take ~15 s on one core of a 2-core machine).
 *
 * Known for the two tokenizers whose pieces are the text they stand for: SentencePiece
 * (`llama`: a piece is its text with `▁` for each space) and byte-level BPE (`gpt2`: one
 * character per UTF-8 byte, and a UTF-16 code unit is at least one byte). The longest piece of any
 * type bounds them both (byte tokens `<0x0A>` and control tokens only make it looser). Others
 * (UGM collapses whitespace, so one token can stand for any number of spaces) get no bound.
 */
export function longestTokenText(header: Pick<GgufHeader, "metadata">): number | undefined {
  const tokenizer = metadataString(header, "tokenizer.ggml.model");
  if (tokenizer !== "llama" && tokenizer !== "gpt2") return undefined;
  const tokens = metadataArray(header, "tokenizer.ggml.tokens");
  if (!tokens || tokens.value.length === 0) return undefined;
  let longest = 1;
  for (const token of tokens.value) {
    if (typeof token !== "string") return undefined;
    if (token.length > longest) longest = token.length;
  }
  return longest;
}

/**
 * UTF-16 code units of the prompt's text that tokens must cover (the chat template's own text
 * aside; chat messages counted trimmed, in case the template trims them): with the longest
 * piece, `ceil(units / longest)` tokens at least. An infill prompt for a model without
 * fill-in-the-middle tokens is run as a completion of its prefix alone (the suffix is not
 * tokenized), so only the prefix counts then.
 */
export function promptTextUnits(prompt: PromptInput, hasInfillTokens: boolean): number {
  switch (prompt.kind) {
    case "completion":
      return prompt.text.length;
    case "alpaca":
      return alpacaPrompt(prompt.instruction, prompt.input).length;
    case "infill":
      return prompt.prefix.length + (hasInfillTokens ? prompt.suffix.length : 0);
    case "chat":
      return prompt.messages.reduce((sum, m) => sum + m.content.trim().length, 0);
  }
}
