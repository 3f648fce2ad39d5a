import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SafetensorsFile, writeSafetensorsFile, type SafetensorsTensorToWrite } from "@local-mcp/core/inference";
import { connectInProcess, writeTinyLlamaGguf, writeTinyPeftAdapter } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMochiServer } from "../src/server.js";
import { startRuntime } from "./helpers/tiny-model.js";
import { resourceText } from "./helpers/resource-text.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let dir: string;
let base: string;
let peft: string;

function mochi(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mochi-adapter-"));
  base = join(dir, "base.gguf");
  peft = join(dir, "peft-run");
  await writeTinyLlamaGguf(base);
  await writeTinyPeftAdapter(peft, { rank: 4, alpha: 8 });
  writeFileSync(
    join(peft, "trainer_state.json"),
    JSON.stringify({ global_step: 120, epoch: 3, log_history: [{ loss: 2.5 }, { loss: 1.25, eval_loss: 1.5 }] }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The same adapter as mlx_lm.lora saves it: lora_a (in, r) = Aᵀ, lora_b (r, out) = Bᵀ, scale =
 * alpha / r, and the base model recorded as `model` (PEFT's base_model_name_or_path).
 */
async function writeMlxCopy(from: string, to: string, scale: number): Promise<void> {
  const weights = await SafetensorsFile.read(join(from, "adapter_model.safetensors"));
  const tensors: SafetensorsTensorToWrite[] = [];
  for (const [name, info] of weights.tensors) {
    const [rows, cols] = info.shape as [number, number];
    const values = weights.values(name);
    const transposed = new Float32Array(values.length);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) transposed[c * rows + r] = values[r * cols + c] as number;
    const mlxName = name
      .replace(/^base_model\.model\./, "")
      .replace(/\.lora_A\.weight$/, ".lora_a")
      .replace(/\.lora_B\.weight$/, ".lora_b");
    tensors.push({ name: mlxName, dtype: "F32", shape: [cols, rows], values: transposed });
  }
  mkdirSync(to, { recursive: true });
  await writeSafetensorsFile(join(to, "adapters.safetensors"), tensors);
  writeFileSync(
    join(to, "adapter_config.json"),
    JSON.stringify({ model: "tiny-llama", fine_tune_type: "lora", num_layers: 2, lora_parameters: { rank: 4, scale, dropout: 0 } }),
  );
}

describe("mochi adapter convert", () => {
  it("converts a PEFT adapter against its base and records its config and training next to it", async () => {
    const out = join(dir, "mochi.gguf");
    const run = await mochi(["adapter", "convert", peft, "--out", out, "--base", base]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("llama LoRA from PEFT, rank 4, alpha 8, 14 tensors, checked against the base model");
    const sidecar = JSON.parse(readFileSync(`${out}.json`, "utf8")) as Record<string, Record<string, unknown>>;
    expect(sidecar.adapterConfig).toMatchObject({ r: 4, lora_alpha: 8 });
    expect(sidecar.conversion).toMatchObject({
      from: "peft",
      architecture: "llama",
      rank: 4,
      alpha: 8,
      validated: true,
      base: "base.gguf",
    });
    expect(sidecar.training).toEqual({ global_step: 120, epoch: 3, last_loss: 1.25, last_eval_loss: 1.5 });

    // mochi://stats shows what is next to the adapter.
    const runtime = await startRuntime({ MOCHI_MODEL: base, MOCHI_ADAPTER: `${out}:0.5` }, dir);
    const connection = await connectInProcess(createMochiServer(runtime.config, { runtime }));
    const stats = JSON.parse(resourceText(await connection.client.readResource({ uri: "mochi://stats" }))) as {
      model: { readiness: { state: string }; adapters: Array<Record<string, unknown>> };
    };
    expect(stats.model.readiness.state).toBe("ready");
    expect(stats.model.adapters[0]).toMatchObject({
      file: "mochi.gguf",
      scale: 0.5,
      sources: ["mochi.gguf.json"],
      adapterConfig: { r: 4 },
      training: { global_step: 120 },
      gguf: { alpha: 8, rank: 4, architecture: "llama" },
    });
    await connection.close();
    await runtime.dispose();
  });

  it("converts an mlx_lm adapter to the same GGUF as the PEFT adapter it equals", async () => {
    const mlx = join(dir, "mlx-run");
    await writeMlxCopy(peft, mlx, 8 / 4);
    const fromPeft = join(dir, "from-peft.gguf");
    const fromMlx = join(dir, "from-mlx.gguf");
    expect((await mochi(["adapter", "convert", peft, "--out", fromPeft, "--base", base, "--name", "same"])).code).toBe(0);
    const run = await mochi(["adapter", "convert", mlx, "--out", fromMlx, "--base", base, "--name", "same"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("from MLX, rank 4, alpha 8");
    expect(readFileSync(fromMlx).equals(readFileSync(fromPeft))).toBe(true);
  });

  it("refuses what cannot be a GGUF LoRA, and bad usage", async () => {
    const dora = join(dir, "dora-run");
    await writeTinyPeftAdapter(dora, { useDora: true });
    const refused = await mochi(["adapter", "convert", dora, "--out", join(dir, "dora.gguf"), "--base", base]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("DoRA");
    expect((await mochi(["adapter", "convert", peft])).code).toBe(2);
    expect((await mochi(["adapter", "convert", peft, "--out", join(dir, "x.gguf"), "--arch", "gpt2"])).code).toBe(2);
  });
});
