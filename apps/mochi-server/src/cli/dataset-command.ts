import { join, resolve } from "node:path";
import { buildDataset } from "../domain/dataset/build-dataset.js";
import { DATASET_FORMATS, writeDataset, type DatasetFormat } from "../domain/dataset/dataset-files.js";
import { CliUsageError } from "./cli-usage-error.js";
import { indexRepository } from "./index-command.js";

export interface DatasetCommandOptions {
  out?: string;
  seed?: string;
  validRatio?: string;
  format?: string;
  quiet?: boolean;
}

/** `mochi dataset <repo>`: Alpaca JSONL train/valid files from the code and its catalog. */
export async function runDatasetCommand(repo: string, options: DatasetCommandOptions): Promise<void> {
  const seed = options.seed === undefined ? 42 : Number(options.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new CliUsageError(`--seed must be a non-negative integer, got '${options.seed}'`);
  const validRatio = options.validRatio === undefined ? 0.1 : Number(options.validRatio);
  if (!(validRatio >= 0 && validRatio < 1)) throw new CliUsageError(`--valid-ratio must be in [0, 1), got '${options.validRatio}'`);
  const format = (options.format ?? "alpaca") as DatasetFormat;
  if (!DATASET_FORMATS.includes(format))
    throw new CliUsageError(`--format must be ${DATASET_FORMATS.join(" or ")}, got '${options.format}'`);
  const out = resolve(options.out ?? join(repo, ".mochi", "dataset"));
  const { scan, catalog } = await indexRepository(repo, options.quiet ?? false, "mochi dataset");
  const dataset = buildDataset(scan, catalog, { seed, validRatio });
  const files = writeDataset(out, dataset, format);
  const kinds = Object.entries(dataset.metadata.kinds)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ");
  process.stdout.write(
    `Wrote ${dataset.train.length} train and ${dataset.valid.length} valid records (${format}; ${kinds}) from ${scan.files.length} files:\n` +
      files.map((f) => `  ${f}\n`).join(""),
  );
}
