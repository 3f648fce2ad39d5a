/** One Alpaca training record, the format Mochi is fine-tuned on (`### Instruction` / `### Input` / `### Response`). */
export interface AlpacaRecord {
  instruction: string;
  input: string;
  output: string;
}

export const SAMPLE_KINDS = ["completion", "fim", "explanation", "pattern-qa", "convention-qa"] as const;
export type SampleKind = (typeof SAMPLE_KINDS)[number];

/** A record with where it came from: `group` keeps related records in the same split (no leakage). */
export interface DatasetSample {
  kind: SampleKind;
  group: string;
  record: AlpacaRecord;
}
