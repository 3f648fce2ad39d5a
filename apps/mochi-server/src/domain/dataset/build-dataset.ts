import type { Catalog } from "../catalog/catalog-schema.js";
import type { RepositoryScan } from "../catalog/scan-repository.js";
import { SAMPLE_KINDS, type DatasetSample, type SampleKind } from "./alpaca-record.js";
import { catalogSamples } from "./catalog-samples.js";
import { codeSamples } from "./code-samples.js";
import { splitDataset, type DatasetSplit } from "./dataset-split.js";

export interface DatasetOptions {
  /** Seeds the FIM spans and the split; default 42. */
  seed?: number;
  /** Share of records for validation; default 0.1. */
  validRatio?: number;
}

export interface DatasetMetadata {
  format: "mochi-dataset/1";
  seed: number;
  validRatio: number;
  catalogVersion: string;
  files: number;
  records: { train: number; valid: number };
  kinds: Record<SampleKind, number>;
}

export interface Dataset extends DatasetSplit {
  metadata: DatasetMetadata;
}

/** Training data for the codebase: code samples from every file, Q&A from the catalog, split by group. */
export function buildDataset(scan: RepositoryScan, catalog: Catalog, options: DatasetOptions = {}): Dataset {
  const seed = options.seed ?? 42;
  const validRatio = options.validRatio ?? 0.1;
  const samples: DatasetSample[] = [...scan.files.flatMap((file) => codeSamples(file, seed)), ...catalogSamples(catalog)];
  const unique = dedupe(samples);
  const split = splitDataset(unique, seed, validRatio);
  const kinds = Object.fromEntries(SAMPLE_KINDS.map((k) => [k, unique.filter((s) => s.kind === k).length])) as Record<SampleKind, number>;
  return {
    ...split,
    metadata: {
      format: "mochi-dataset/1",
      seed,
      validRatio,
      catalogVersion: catalog.version,
      files: scan.files.length,
      records: { train: split.train.length, valid: split.valid.length },
      kinds,
    },
  };
}

/** Drops records identical to an earlier one (duplicated code gives duplicated samples). */
function dedupe(samples: readonly DatasetSample[]): DatasetSample[] {
  const seen = new Set<string>();
  return samples.filter((s) => {
    const key = JSON.stringify([s.record.instruction, s.record.input, s.record.output]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
