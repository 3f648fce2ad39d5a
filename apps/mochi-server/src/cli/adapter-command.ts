import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { stableStringify } from "@local-mcp/core";
import { convertPeftToGguf, type ConvertPeftOptions } from "@local-mcp/core/inference";
import { isMlxAdapterDir, mlxAdapterToPeft } from "../domain/adapters/mlx-adapter.js";
import { adapterSidecarPath, summarizeTrainerState } from "../domain/model/adapter-metadata.js";
import { CliUsageError } from "./cli-usage-error.js";

export interface AdapterConvertOptions {
  out?: string;
  base?: string;
  arch?: string;
  heads?: string;
  kvHeads?: string;
  type?: string;
  name?: string;
  dataset?: string;
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * `mochi adapter convert <dir> --out x.gguf [--base model.gguf]`: core's PEFT → GGUF converter
 * (`convertPeftToGguf`), also for MLX adapters (`mlx_lm.lora` output, rewritten as PEFT first).
 * Writes `<out>.json` next to the GGUF with the adapter config, the conversion, and the training
 * metadata found in the adapter directory (and `--dataset`'s dataset.json), which `mochi://stats` shows.
 */
export async function runAdapterConvert(dir: string, options: AdapterConvertOptions): Promise<void> {
  if (!options.out) throw new CliUsageError("adapter convert needs --out <adapter.gguf>");
  const arch = options.arch;
  if (arch !== undefined && arch !== "llama" && arch !== "qwen2") throw new CliUsageError(`--arch must be llama or qwen2, got '${arch}'`);
  const type = options.type?.toUpperCase();
  if (type !== undefined && type !== "F32" && type !== "F16") throw new CliUsageError(`--type must be f32 or f16, got '${options.type}'`);
  const source = resolve(dir);
  if (!existsSync(source)) throw new CliUsageError(`no adapter directory at ${source}`);
  const out = resolve(options.out);
  const mlx = isMlxAdapterDir(source);
  const workDir = mlx ? mkdtempSync(join(tmpdir(), "mochi-mlx-peft-")) : undefined;
  try {
    const mlxInfo = workDir ? await mlxAdapterToPeft(source, workDir) : undefined;
    const peftDir = workDir ?? source;
    const convert: ConvertPeftOptions = {
      adapterDir: peftDir,
      outPath: out,
      name: options.name ?? basename(source),
      ...(options.base ? { baseModelPath: resolve(options.base) } : {}),
      ...(arch ? { architecture: arch } : {}),
      ...(options.heads ? { headCount: Number(options.heads) } : {}),
      ...(options.kvHeads ? { headCountKv: Number(options.kvHeads) } : {}),
      ...(type ? { outputType: type } : {}),
    };
    const result = await convertPeftToGguf(convert);
    const trainerState = readJson(join(source, "trainer_state.json"));
    const training = readJson(join(source, "training_metadata.json")) ?? (trainerState ? summarizeTrainerState(trainerState) : undefined);
    const dataset = options.dataset ? readJson(join(resolve(options.dataset), "dataset.json")) : undefined;
    const sidecar = {
      adapterConfig: readJson(join(peftDir, "adapter_config.json")) ?? null,
      conversion: {
        from: mlx ? "mlx" : "peft",
        source: basename(source),
        architecture: result.architecture,
        rank: result.rank,
        alpha: result.alpha,
        rsLora: result.rsLora,
        tensors: result.tensors.length,
        validated: result.validated,
        base: options.base ? basename(options.base) : null,
        ...(mlxInfo ? { mlxScale: mlxInfo.scale } : {}),
      },
      training: training ?? null,
      dataset: dataset ?? null,
    };
    writeFileSync(adapterSidecarPath(out), `${stableStringify(sidecar)}\n`);
    process.stdout.write(
      `wrote ${out}: ${result.architecture} LoRA from ${mlx ? "MLX" : "PEFT"}, rank ${result.rank}, alpha ${result.alpha}${result.rsLora ? " (rsLoRA: alpha·√r)" : ""}, ` +
        `${result.tensors.length} tensors${result.validated ? ", checked against the base model" : ""}\n` +
        `wrote ${adapterSidecarPath(out)} (adapter config and training metadata for mochi://stats)\n`,
    );
  } finally {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }
}
