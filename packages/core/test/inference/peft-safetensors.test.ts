import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roundToBfloat16, roundToFloat16 } from "../../src/inference/gguf/index.js";
import { SafetensorsFile, SafetensorsFormatError, writeSafetensorsFile } from "../../src/inference/peft/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "safetensors-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const VALUES = Float32Array.from([0.1, -2.5, 3.14159, 1e-6, -65504, 0.333333, 7, -0.0078125]);

describe("safetensors", () => {
  it.each(["F32", "F16", "BF16"] as const)("round-trips %s tensors with their PyTorch shapes", async (dtype) => {
    const path = join(dir, `${dtype}.safetensors`);
    await writeSafetensorsFile(path, [
      { name: "base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight", dtype, shape: [2, 4], values: VALUES },
      { name: "scalarish", dtype, shape: [1], values: Float32Array.of(1.5) },
    ]);
    const file = await SafetensorsFile.read(path);
    const info = file.tensors.get("base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight");
    expect(info).toMatchObject({ dtype, shape: [2, 4], byteLength: 8 * (dtype === "F32" ? 4 : 2) });
    const expected = dtype === "F32" ? VALUES : dtype === "F16" ? roundToFloat16(VALUES) : roundToBfloat16(VALUES);
    expect([...file.values("base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight")]).toEqual([...expected]);
    expect([...file.values("scalarish")]).toEqual([1.5]);
    expect(file.metadata).toEqual({ format: "pt" });
  });

  it("reads the layout the reference implementation writes (u64 header length, JSON, data)", async () => {
    // Hand-built: header {"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}} then two floats.
    const json = Buffer.from(JSON.stringify({ w: { dtype: "F32", shape: [2], data_offsets: [0, 8] } }));
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(json.length));
    const data = Buffer.alloc(8);
    data.writeFloatLE(1.25, 0);
    data.writeFloatLE(-3, 4);
    const path = join(dir, "hand.safetensors");
    await writeFile(path, Buffer.concat([length, json, data]));
    expect([...(await SafetensorsFile.read(path)).values("w")]).toEqual([1.25, -3]);
    // Our writer pads the header to 8 bytes like the reference.
    await writeSafetensorsFile(join(dir, "padded.safetensors"), [
      { name: "w", dtype: "F32", shape: [2], values: Float32Array.of(1.25, -3) },
    ]);
    expect(Number((await readFile(join(dir, "padded.safetensors"))).readBigUInt64LE(0)) % 8).toBe(0);
  });

  it("names the file in clear errors for truncated, corrupt and unsupported content", async () => {
    const good = join(dir, "good.safetensors");
    await writeSafetensorsFile(good, [{ name: "w", dtype: "F32", shape: [4], values: new Float32Array(4) }]);
    const bytes = await readFile(good);

    const cut = join(dir, "cut.safetensors");
    await writeFile(cut, bytes.subarray(0, bytes.length - 4));
    await expect(SafetensorsFile.read(cut)).rejects.toThrow(SafetensorsFormatError);
    await expect(SafetensorsFile.read(cut)).rejects.toThrow(
      `${cut}: tensor "w": data ends at 16 but the file holds only 12 data bytes (truncated)`,
    );

    const notJson = join(dir, "not-json.safetensors");
    const broken = Buffer.from(bytes);
    broken.write("{{{{", 8);
    await writeFile(notJson, broken);
    await expect(SafetensorsFile.read(notJson)).rejects.toThrow(`${notJson}: the header is not valid JSON`);

    const huge = join(dir, "huge-header.safetensors");
    const hugeBytes = Buffer.from(bytes);
    hugeBytes.writeBigUInt64LE(1n << 40n, 0);
    await writeFile(huge, hugeBytes);
    await expect(SafetensorsFile.read(huge)).rejects.toThrow(/header length \d+ does not fit/);

    const i64 = join(dir, "i64.safetensors");
    const json = Buffer.from(JSON.stringify({ n: { dtype: "I64", shape: [1], data_offsets: [0, 8] } }));
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(json.length));
    await writeFile(i64, Buffer.concat([length, json, Buffer.alloc(8)]));
    const file = await SafetensorsFile.read(i64);
    expect(file.tensors.get("n")?.dtype).toBe("I64");
    expect(() => file.values("n")).toThrow(/only F32, F16 and BF16 can be read/);

    await expect(SafetensorsFile.read(join(dir, "absent.safetensors"))).rejects.toThrow(/absent\.safetensors: file not found/);
  });
});
