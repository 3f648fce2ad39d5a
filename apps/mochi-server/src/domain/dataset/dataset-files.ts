import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stableStringify } from "@local-mcp/core";
import { alpacaPrompt } from "@local-mcp/core/inference";
import type { AlpacaRecord, DatasetSample } from "./alpaca-record.js";
import type { Dataset } from "./build-dataset.js";

/**
 * `alpaca`: `{"instruction","input","output"}` per line (PEFT/TRL scripts, Axolotl's `alpaca` type).
 * `completions`: `{"prompt","completion"}` with the prompt already in the Alpaca template the server
 * uses (`alpacaPrompt` from core), which `mlx_lm.lora` reads as its completions format.
 */
export const DATASET_FORMATS = ["alpaca", "completions"] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

export function formatRecord(record: AlpacaRecord, format: DatasetFormat): string {
  if (format === "completions")
    return JSON.stringify({ prompt: alpacaPrompt(record.instruction, record.input), completion: record.output });
  return JSON.stringify({ instruction: record.instruction, input: record.input, output: record.output });
}

/** The served rendering `mochi train` reads: `{"kind","group","prompt","completion"}` a line (prompt: a PromptInput). */
export const SERVED_FILES = { train: "train.served.jsonl", valid: "valid.served.jsonl" } as const;

function servedJsonl(samples: readonly DatasetSample[]): string {
  return samples
    .map((s) => `${JSON.stringify({ kind: s.kind, group: s.group, prompt: s.served.prompt, completion: s.served.completion })}\n`)
    .join("");
}

function jsonl(samples: readonly DatasetSample[], format: DatasetFormat): string {
  return samples.map((s) => `${formatRecord(s.record, format)}\n`).join("");
}

/**
 * Writes `train.jsonl`, `valid.jsonl` (in `format`), the served rendering of the same samples
 * (SERVED_FILES, for `mochi train`) and `dataset.json` (counts, seed, catalog version) into `dir`.
 */
export function writeDataset(dir: string, dataset: Dataset, format: DatasetFormat): string[] {
  mkdirSync(dir, { recursive: true });
  const files = [
    join(dir, "train.jsonl"),
    join(dir, "valid.jsonl"),
    join(dir, SERVED_FILES.train),
    join(dir, SERVED_FILES.valid),
    join(dir, "dataset.json"),
  ];
  writeFileSync(files[0] as string, jsonl(dataset.train, format));
  writeFileSync(files[1] as string, jsonl(dataset.valid, format));
  writeFileSync(files[2] as string, servedJsonl(dataset.train));
  writeFileSync(files[3] as string, servedJsonl(dataset.valid));
  writeFileSync(files[4] as string, `${stableStringify({ ...dataset.metadata, recordFormat: format, servedFormat: "mochi-served/1" })}\n`);
  return files;
}
