/**
 * The Alpaca prompt format Mochi was fine-tuned on (the original design's domain-query task):
 *
 *     ### Instruction:
 *     {instruction}
 *
 *     ### Input:
 *     {input}
 *
 *     ### Response:
 *
 * The Input block is left out when there is no input.
 */
export function alpacaPrompt(instruction: string, input?: string): string {
  const parts = [`### Instruction:\n${instruction.trim()}`];
  if (input && input.trim().length > 0) parts.push(`### Input:\n${input.trim()}`);
  parts.push("### Response:\n");
  return parts.join("\n\n");
}

/** Where an Alpaca response ends: the model starting a new section. */
export const ALPACA_STOPS: readonly string[] = ["\n### Instruction", "\n### Input", "\n### Response"];
