import type { PromptInput } from "../model/prompts.js";

/** One Alpaca training record, the format Mochi is fine-tuned on (`### Instruction` / `### Input` / `### Response`). */
export interface AlpacaRecord {
  instruction: string;
  input: string;
  output: string;
}

export const SAMPLE_KINDS = ["completion", "fim", "explanation", "pattern-qa", "convention-qa"] as const;
export type SampleKind = (typeof SAMPLE_KINDS)[number];

/**
 * A sample as the server serves it: the prompt complete_code or domain_query sends for it
 * (prompts.ts' completionPrompt or domainPrompt) and the text the model should answer. `mochi
 * train` trains on these, so training and serving see the same prompts.
 */
export interface ServedSample {
  prompt: PromptInput;
  completion: string;
}

/** A record with where it came from: `group` keeps related records in the same split (no leakage). */
export interface DatasetSample {
  kind: SampleKind;
  group: string;
  /** The Alpaca rendering (the `alpaca` and `completions` formats, for other trainers). */
  record: AlpacaRecord;
  /** The served rendering (`mochi train`). */
  served: ServedSample;
}
