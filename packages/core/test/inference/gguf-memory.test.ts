import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GgufInsights, readGgufFileInfo } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryGuard } from "../../src/guards/memory.js";
import {
  GgmlType,
  estimateModelMemory,
  ggmlTensorBytes,
  ggufValue,
  readGgufHeader,
  writeGgufFile,
} from "../../src/inference/gguf/index.js";
import type { GgufHeader } from "../../src/inference/gguf/index.js";
import { TINY_MODEL, writeTinyLlamaGguf } from "../../src/testing/index.js";

let dir: string;
let tiny: GgufHeader;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "gguf-memory-"));
  tiny = await readGgufHeader((await writeTinyLlamaGguf(join(dir, "tiny.gguf"))).path);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;

describe("estimateModelMemory", () => {
  it("counts the tiny model's F32 weights exactly", () => {
    const { embeddingLength: d, blockCount, headCountKv, headDim, feedForwardLength: ff } = TINY_MODEL;
    const vocab = 270;
    const kv = headCountKv * headDim;
    const perBlock = d + d * d + kv * d * 2 + d * d + d + 3 * d * ff;
    const values = vocab * d * 2 + d + blockCount * perBlock;
    const estimate = estimateModelMemory(tiny, { contextSize: 1024 });
    expect(estimate.weightsBytes).toBe(values * 4);
    expect(estimate.weightsBytes).toBeLessThanOrEqual(tiny.fileSize - tiny.dataOffset);
  });

  it("sizes the KV cache as n_layer × cells × (n_embd_k_gqa + n_embd_v_gqa) × bytes per value", () => {
    // 2 layers × 1024 cells × (32 + 32) values × 2 bytes (F16)
    expect(estimateModelMemory(tiny, { contextSize: 1024 }).kvCacheBytes).toBe(2 * 1024 * 64 * 2);
    expect(estimateModelMemory(tiny, { contextSize: 1024, kvCacheType: GgmlType.F32 }).kvCacheBytes).toBe(2 * 1024 * 64 * 4);
    expect(estimateModelMemory(tiny, { contextSize: 1024, kvCacheType: GgmlType.Q8_0 }).kvCacheBytes).toBe((2 * 1024 * 64 * 34) / 32);
    expect(estimateModelMemory(tiny, { contextSize: 512, sequences: 2 }).kvCacheBytes).toBe(2 * 1024 * 64 * 2);
    expect(estimateModelMemory(tiny, { contextSize: 1000 }).kvCells).toBe(1024); // padded to 256 like llama.cpp
  });

  it("grows with the context size and stays in a sane range for the tiny model", () => {
    const small = estimateModelMemory(tiny, { contextSize: 512 });
    const large = estimateModelMemory(tiny, { contextSize: 4096 });
    expect(large.kvCacheBytes).toBe(8 * small.kvCacheBytes);
    expect(large.computeBytes).toBeGreaterThan(small.computeBytes);
    expect(large.totalBytes).toBeGreaterThan(small.totalBytes);
    expect(small.totalBytes).toBe(small.weightsBytes + small.kvCacheBytes + small.computeBytes);
    expect(small.totalBytes).toBeGreaterThan(16 * MiB); // the fixed allowance
    expect(small.totalBytes).toBeLessThan(32 * MiB);
    expect(large.totalBytes).toBeLessThan(64 * MiB);
  });

  it("is not below node-llama-cpp's own estimate of the same context", async () => {
    const insights = await GgufInsights.from(await readGgufFileInfo(tiny.file));
    for (const contextSize of [512, 4096]) {
      const theirs = insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0 });
      const model = insights.estimateModelResourceRequirements({ gpuLayers: 0 });
      const ours = estimateModelMemory(tiny, { contextSize });
      expect(ours.totalBytes).toBeGreaterThanOrEqual(theirs.cpuRam + model.cpuRam);
      expect(ours.totalBytes).toBeLessThan(4 * (theirs.cpuRam + model.cpuRam) + 16 * MiB);
    }
  });

  it("uses ggml block sizes for quantized tensors (Q4_0, Q4_K, Q8_0, Q6_K)", async () => {
    const path = join(dir, "quantized.gguf");
    const tensors = [
      { name: "q4_0", dims: [4096, 4], type: GgmlType.Q4_0 },
      { name: "q4_k", dims: [4096, 4], type: GgmlType.Q4_K },
      { name: "q8_0", dims: [4096, 4], type: GgmlType.Q8_0 },
      { name: "q6_k", dims: [4096, 4], type: GgmlType.Q6_K },
    ] as const;
    await writeGgufFile(path, {
      metadata: [["general.architecture", ggufValue.str("llama")]],
      tensors: tensors.map((t) => ({ ...t, bytes: new Uint8Array(ggmlTensorBytes(t.type, t.dims)) })),
    });
    const header = await readGgufHeader(path);
    const values = 4096 * 4;
    // Q4_0: 18 bytes / 32 values; Q4_K: 144 / 256; Q8_0: 34 / 32; Q6_K: 210 / 256.
    expect(header.tensors.map((t) => t.byteLength)).toEqual([
      (values / 32) * 18,
      (values / 256) * 144,
      (values / 32) * 34,
      (values / 256) * 210,
    ]);
    expect(estimateModelMemory(header, { contextSize: 256 }).weightsBytes).toBe((values / 32) * (18 + 34) + (values / 256) * (144 + 210));
  });

  it("feeds the memory guard, which refuses a load above the bound with RESOURCE_EXHAUSTED", () => {
    const estimate = estimateModelMemory(tiny, { contextSize: 4096 });
    const guard = new MemoryGuard({ boundBytes: 20 * MiB, rssBytes: () => 8 * MiB, availableBytes: () => 1024 * MiB });
    expect(() => guard.admit(estimate.totalBytes, "tiny.gguf")).toThrow(expect.objectContaining({ code: "RESOURCE_EXHAUSTED" }));
    const roomy = new MemoryGuard({ boundBytes: 512 * MiB, rssBytes: () => 8 * MiB, availableBytes: () => 1024 * MiB });
    expect(() => roomy.admit(estimate.totalBytes, "tiny.gguf")).not.toThrow();
  });
});
