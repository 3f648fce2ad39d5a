import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The sidecar `mochi adapter convert` writes next to a GGUF adapter: `<adapter>.gguf.json`. */
export function adapterSidecarPath(adapterPath: string): string {
  return `${adapterPath}.json`;
}

export interface AdapterMetadata {
  file: string;
  /** Where the metadata came from. */
  sources: string[];
  adapterConfig?: Record<string, unknown>;
  conversion?: Record<string, unknown>;
  training?: Record<string, unknown>;
  dataset?: Record<string, unknown>;
  /** From the GGUF header: alpha, rank, architecture, name. */
  gguf?: Record<string, unknown>;
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A summary of a Hugging Face `trainer_state.json`: steps, epochs, the last logged losses. The
 * full log history can be megabytes; stats need only these.
 */
export function summarizeTrainerState(state: Record<string, unknown>): Record<string, unknown> {
  const history = Array.isArray(state.log_history) ? (state.log_history as Array<Record<string, unknown>>) : [];
  const last = (key: string) => [...history].reverse().find((entry) => typeof entry[key] === "number")?.[key];
  const summary: Record<string, unknown> = {};
  for (const key of ["global_step", "epoch", "num_train_epochs", "max_steps", "train_batch_size", "best_metric"]) {
    if (state[key] !== undefined) summary[key] = state[key];
  }
  const loss = last("loss");
  const evalLoss = last("eval_loss");
  if (loss !== undefined) summary.last_loss = loss;
  if (evalLoss !== undefined) summary.last_eval_loss = evalLoss;
  return summary;
}

/**
 * What is known about an adapter from files next to it: the sidecar written by `mochi adapter
 * convert` (`<adapter>.gguf.json`), else `adapter_config.json`, `training_metadata.json` (any JSON
 * you write about the run) and `trainer_state.json` (summarised) in the adapter's directory.
 */
export function readAdapterMetadata(adapterPath: string): AdapterMetadata {
  const metadata: AdapterMetadata = { file: basename(adapterPath), sources: [] };
  const sidecar = readJson(adapterSidecarPath(adapterPath));
  if (sidecar) {
    metadata.sources.push(basename(adapterSidecarPath(adapterPath)));
    for (const key of ["adapterConfig", "conversion", "training", "dataset"] as const) {
      const value = sidecar[key];
      if (value !== null && typeof value === "object") metadata[key] = value as Record<string, unknown>;
    }
    return metadata;
  }
  const dir = dirname(adapterPath);
  const config = readJson(join(dir, "adapter_config.json"));
  if (config) {
    metadata.sources.push("adapter_config.json");
    metadata.adapterConfig = config;
  }
  const training = readJson(join(dir, "training_metadata.json"));
  if (training) {
    metadata.sources.push("training_metadata.json");
    metadata.training = training;
  } else if (existsSync(join(dir, "trainer_state.json"))) {
    const state = readJson(join(dir, "trainer_state.json"));
    if (state) {
      metadata.sources.push("trainer_state.json");
      metadata.training = summarizeTrainerState(state);
    }
  }
  return metadata;
}
