/**
 * Token estimates for `tokens_saved`. No tokenizer is loaded for this: a token is taken as four
 * characters (UTF-16 code units), the usual rule of thumb for English prose and code with
 * Claude-family and GPT-family tokenizers. The estimate is used on both sides of the subtraction
 * (what the server read for Claude, and what it answered), so its bias largely cancels.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(charCount: number): number {
  return Math.ceil(Math.max(0, charCount) / CHARS_PER_TOKEN);
}

export function estimateTextTokens(text: string): number {
  return estimateTokens(text.length);
}
