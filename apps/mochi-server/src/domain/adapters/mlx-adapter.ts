import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PeftConversionError, SafetensorsFile, writeSafetensorsFile, type SafetensorsTensorToWrite } from "@local-mcp/core/inference";

/** An adapter directory as `mlx_lm.lora` writes it: `adapters.safetensors` and `adapter_config.json`. */
export function isMlxAdapterDir(dir: string): boolean {
  return existsSync(join(dir, "adapters.safetensors")) && !existsSync(join(dir, "adapter_model.safetensors"));
}

export interface MlxToPeftResult {
  rank: number;
  /** mlx_lm's `scale`; PEFT's lora_alpha is scale × rank. */
  scale: number;
  modules: number;
}

/**
 * Rewrites an MLX LoRA adapter (mlx_lm `LoRALinear`: y = W·x + scale·(x·A)·B with `lora_a` of
 * shape (in, r) and `lora_b` of shape (r, out)) as a PEFT adapter directory: `lora_A.weight` = Aᵀ
 * (r, in), `lora_B.weight` = Bᵀ (out, r), names under `base_model.model.`, and `lora_alpha` =
 * scale × r so PEFT's alpha / r equals MLX's scale. Tensors keep their order and values (F32);
 * core's PEFT converter then writes the GGUF. DoRA and full fine-tunes are refused.
 */
export async function mlxAdapterToPeft(mlxDir: string, peftDir: string): Promise<MlxToPeftResult> {
  const configPath = join(mlxDir, "adapter_config.json");
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(configPath, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new PeftConversionError("invalid", `${configPath}: cannot read the MLX adapter config (${(error as Error).message})`);
  }
  const type = typeof config.fine_tune_type === "string" ? config.fine_tune_type : config.use_dora === true ? "dora" : "lora";
  if (type !== "lora")
    throw new PeftConversionError(
      type === "dora" ? "dora" : "unsupported",
      `${configPath}: fine_tune_type "${type}" is not a LoRA; only LoRA adapters convert to GGUF LoRA.`,
    );
  const parameters = (config.lora_parameters ?? {}) as Record<string, unknown>;
  const scale = typeof parameters.scale === "number" ? parameters.scale : 20;
  const weights = await SafetensorsFile.read(join(mlxDir, "adapters.safetensors")).catch((error: unknown) => {
    throw new PeftConversionError("invalid", error instanceof Error ? error.message : String(error));
  });

  const tensors: SafetensorsTensorToWrite[] = [];
  const modules = new Set<string>();
  let rank: number | undefined;
  for (const [name, info] of weights.tensors) {
    const match = /^(.*)\.lora_([ab])$/.exec(name);
    if (!match)
      throw new PeftConversionError(
        "unsupported",
        `${mlxDir}: "${name}" is not a lora_a/lora_b tensor (a full or bias fine-tune cannot be a GGUF LoRA).`,
      );
    const [rows, cols] = info.shape as [number?, number?];
    if (info.shape.length !== 2 || rows === undefined || cols === undefined)
      throw new PeftConversionError("invalid", `${mlxDir}: "${name}" is not 2-D`);
    const moduleRank = match[2] === "a" ? cols : rows;
    if (rank !== undefined && rank !== moduleRank)
      throw new PeftConversionError("invalid", `${mlxDir}: "${name}" has rank ${moduleRank}, others ${rank}`);
    rank = moduleRank;
    const module = match[1] as string;
    modules.add(module);
    tensors.push({
      name: `base_model.model.${module}.lora_${match[2] === "a" ? "A" : "B"}.weight`,
      dtype: "F32",
      shape: [cols, rows],
      values: transpose(weights.values(name), rows, cols),
    });
  }
  if (rank === undefined) throw new PeftConversionError("invalid", `${mlxDir}: adapters.safetensors holds no LoRA tensors`);
  const targets = [...new Set([...modules].map((m) => m.slice(m.lastIndexOf(".") + 1)))].sort();
  await mkdir(peftDir, { recursive: true });
  await writeFile(
    join(peftDir, "adapter_config.json"),
    `${JSON.stringify(
      {
        peft_type: "LORA",
        r: rank,
        lora_alpha: scale * rank,
        target_modules: targets,
        use_rslora: false,
        use_dora: false,
        bias: "none",
        fan_in_fan_out: false,
        modules_to_save: null,
        base_model_name_or_path: typeof config.model === "string" ? config.model : null,
      },
      null,
      2,
    )}\n`,
  );
  await writeSafetensorsFile(join(peftDir, "adapter_model.safetensors"), tensors);
  return { rank, scale, modules: modules.size };
}

/** Row-major (rows × cols) → row-major (cols × rows). */
function transpose(values: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = values[r * cols + c] as number;
  return out;
}
