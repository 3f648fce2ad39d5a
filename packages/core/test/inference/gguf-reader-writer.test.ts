import { mkdtemp, open, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GgmlType,
  GgufCorruptError,
  GgufTruncatedError,
  GgufValueType,
  checkTensorLayout,
  float16BitsToFloat32,
  float32ToBfloat16Bits,
  float32ToFloat16Bits,
  ggmlTensorBytes,
  ggufValue,
  readGgufHeader,
  writeGgufFile,
} from "../../src/inference/gguf/index.js";
import type { GgufMetadataValue } from "../../src/inference/gguf/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "gguf-rw-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One value of every type, with edge values, and arrays of each. */
const METADATA: Array<[string, GgufMetadataValue]> = [
  ["general.architecture", ggufValue.str("llama")],
  ["t.u8", ggufValue.u8(255)],
  ["t.i8", ggufValue.i8(-128)],
  ["t.u16", ggufValue.u16(65535)],
  ["t.i16", ggufValue.i16(-32768)],
  ["t.u32", ggufValue.u32(4294967295)],
  ["t.i32", ggufValue.i32(-2147483648)],
  ["t.f32", ggufValue.f32(0.1)],
  ["t.f64", ggufValue.f64(0.1)],
  ["t.bool", ggufValue.bool(true)],
  ["t.u64", ggufValue.u64(18446744073709551615n)],
  ["t.i64", ggufValue.i64(-9223372036854775808n)],
  ["t.unicode", ggufValue.str("▁héllo <|im_end|> 日本")],
  ["t.empty", ggufValue.str("")],
  ["t.strings", ggufValue.array(GgufValueType.STRING, ["a", "", "▁b"])],
  ["t.int32s", ggufValue.array(GgufValueType.INT32, [1, -2, 3])],
  ["t.f32s", ggufValue.array(GgufValueType.FLOAT32, [0.5, -1.25])],
  ["t.u64s", ggufValue.array(GgufValueType.UINT64, [1n, 2n ** 63n])],
  ["t.bools", ggufValue.array(GgufValueType.BOOL, [true, false])],
  ["t.none", ggufValue.array(GgufValueType.UINT8, [])],
  [
    "t.nested",
    ggufValue.array(GgufValueType.ARRAY, [ggufValue.array(GgufValueType.INT16, [7, -7]), ggufValue.array(GgufValueType.STRING, ["x"])]),
  ],
];

describe("GGUF writer and reader", () => {
  it("round-trips metadata of every type, keeping the stored type", async () => {
    const path = join(dir, "meta.gguf");
    await writeGgufFile(path, { metadata: METADATA });
    const header = await readGgufHeader(path);
    expect(header.version).toBe(3);
    expect([...header.metadata.keys()]).toEqual(METADATA.map(([key]) => key));
    for (const [key, value] of METADATA) {
      const read = header.metadata.get(key);
      if (key === "t.f32") {
        expect(read).toEqual({ type: GgufValueType.FLOAT32, value: Math.fround(0.1) });
      } else {
        expect(read, key).toEqual(value);
      }
    }
    // FLOAT32 and FLOAT64 stay distinguishable: 0.1 comes back exactly only from FLOAT64.
    expect(header.metadata.get("t.f64")?.value).toBe(0.1);
    expect(header.metadata.get("t.f32")?.value).not.toBe(0.1);
    expect(header.tensors).toEqual([]);
    expect(header.file).toBe(path);
  });

  it("writes F32, F16 and raw quantized tensors at 32-byte aligned offsets, innermost-first dims", async () => {
    const path = join(dir, "tensors.gguf");
    const f32 = Float32Array.from({ length: 6 }, (_, i) => i * 0.25 - 0.5); // PyTorch shape (2, 3)
    const f16 = Float32Array.from([1, -2, 0.1, 65504, 1e-7, 3]);
    const q8 = new Uint8Array(ggmlTensorBytes(GgmlType.Q8_0, [64, 2])).map((_, i) => i % 251);
    await writeGgufFile(path, {
      metadata: [["general.architecture", ggufValue.str("llama")]],
      tensors: [
        { name: "a.weight", dims: [3, 2], type: GgmlType.F32, values: f32 },
        { name: "b.weight", dims: [6], type: GgmlType.F16, values: f16 },
        { name: "c.weight", dims: [64, 2], type: GgmlType.Q8_0, bytes: q8 },
      ],
    });
    const header = await readGgufHeader(path);
    expect(header.alignment).toBe(32);
    expect(header.dataOffset % 32).toBe(0);
    expect(header.tensors.map((t) => [t.name, t.dims, t.type, t.offset, t.byteLength])).toEqual([
      ["a.weight", [3, 2], GgmlType.F32, 0, 24],
      ["b.weight", [6], GgmlType.F16, 32, 12],
      ["c.weight", [64, 2], GgmlType.Q8_0, 64, 136],
    ]);
    expect(checkTensorLayout(header)).toEqual([]);

    const bytes = await readFile(path);
    const at = (name: string) => header.dataOffset + (header.tensors.find((t) => t.name === name)?.offset ?? NaN);
    const back = new Float32Array(bytes.buffer.slice(bytes.byteOffset + at("a.weight"), bytes.byteOffset + at("a.weight") + 24));
    expect([...back]).toEqual([...f32]);
    const halfs = Array.from({ length: 6 }, (_, i) => float16BitsToFloat32(bytes.readUInt16LE(at("b.weight") + i * 2)));
    expect(halfs).toEqual([1, -2, float16BitsToFloat32(float32ToFloat16Bits(0.1)), 65504, float16BitsToFloat32(2), 3]);
    expect(bytes.subarray(at("c.weight"), at("c.weight") + q8.length).equals(Buffer.from(q8))).toBe(true);
    expect(bytes.length).toBe(header.dataOffset + 64 + 160); // each tensor padded to 32, the last too
  });

  it("honours general.alignment", async () => {
    const path = join(dir, "align.gguf");
    await writeGgufFile(path, {
      metadata: [["general.alignment", ggufValue.u32(64)]],
      tensors: [
        { name: "x", dims: [3], type: GgmlType.F32, values: new Float32Array(3) },
        { name: "y", dims: [3], type: GgmlType.F32, values: new Float32Array(3) },
      ],
    });
    const header = await readGgufHeader(path);
    expect(header.alignment).toBe(64);
    expect(header.dataOffset % 64).toBe(0);
    expect(header.tensors[1]?.offset).toBe(64);
  });

  it("writes files node-llama-cpp's own GGUF parser reads the same way", async () => {
    const path = join(dir, "crosscheck.gguf");
    await writeGgufFile(path, {
      metadata: [
        ["general.architecture", ggufValue.str("llama")],
        ["llama.context_length", ggufValue.u32(128)],
        ["llama.attention.layer_norm_rms_epsilon", ggufValue.f32(1e-5)],
        ["tokenizer.ggml.tokens", ggufValue.array(GgufValueType.STRING, ["<unk>", "a"])],
      ],
      tensors: [{ name: "token_embd.weight", dims: [4, 2], type: GgmlType.F16, values: new Float32Array(8) }],
    });
    const theirs = await readGgufFileInfo(path, { readTensorInfo: true });
    const ours = await readGgufHeader(path);
    expect(theirs.version).toBe(ours.version);
    expect(theirs.metadata.llama?.context_length).toBe(128);
    expect(theirs.metadata.tokenizer?.ggml?.tokens).toEqual(["<unk>", "a"]);
    const tensor = theirs.fullTensorInfo?.[0];
    expect(tensor?.name).toBe("token_embd.weight");
    expect(tensor?.dimensions.map(Number)).toEqual([4, 2]);
    expect(tensor?.ggmlType).toBe(GgmlType.F16);
    expect(Number(tensor?.offset)).toBe(ours.tensors[0]?.offset);
  });

  it("reads only the header: a huge vocabulary is fast and tensor data is never touched", async () => {
    const path = join(dir, "big-vocab.gguf");
    const tokens = Array.from({ length: 150_000 }, (_, i) => `token-${i}-▁`);
    await writeGgufFile(path, {
      metadata: [["tokenizer.ggml.tokens", ggufValue.array(GgufValueType.STRING, tokens)]],
    });
    const started = performance.now();
    const header = await readGgufHeader(path);
    const elapsed = performance.now() - started;
    const read = header.metadata.get("tokenizer.ggml.tokens");
    expect(read?.type === GgufValueType.ARRAY ? read.value.length : 0).toBe(150_000);
    expect(read?.type === GgufValueType.ARRAY ? read.value[149_999] : undefined).toBe("token-149999-▁");
    expect(elapsed).toBeLessThan(2000);

    // A header announcing 16 GiB of tensor data with none present reads fine; only the layout
    // check (which compares offsets with the file size) notices.
    const claims = join(dir, "claims-16gib.gguf");
    await writeHeaderOnly(claims, [{ name: "huge", dims: [65536, 65536], type: GgmlType.F32 }]);
    const claimed = await readGgufHeader(claims);
    expect(claimed.tensors[0]?.byteLength).toBe(65536 * 65536 * 4);
    expect(checkTensorLayout(claimed)).toEqual([{ file: claims, problem: expect.stringContaining("truncated") as unknown as string }]);
  });

  it("names the file in clear errors for truncated and corrupt files", async () => {
    const good = join(dir, "good.gguf");
    await writeGgufFile(good, { metadata: METADATA });
    const bytes = await readFile(good);

    const cut = join(dir, "cut.gguf");
    await writeFile(cut, bytes.subarray(0, 100));
    const truncated = await readGgufHeader(cut).catch((e: unknown) => e);
    expect(truncated).toBeInstanceOf(GgufTruncatedError);
    expect((truncated as Error).message).toMatch(new RegExp(`^${escape(cut)}: `));

    const notGguf = join(dir, "not.gguf");
    await writeFile(notGguf, "PK\u0003\u0004 this is a zip file, not a model");
    await expect(readGgufHeader(notGguf)).rejects.toThrow(GgufCorruptError);
    await expect(readGgufHeader(notGguf)).rejects.toThrow(`${notGguf}: not a GGUF file`);

    const v1 = join(dir, "v1.gguf");
    const v1Bytes = Buffer.from(bytes);
    v1Bytes.writeUInt32LE(1, 4);
    await writeFile(v1, v1Bytes);
    await expect(readGgufHeader(v1)).rejects.toThrow(/version 1 is no longer supported/);

    const absurd = join(dir, "absurd.gguf");
    const absurdBytes = Buffer.from(bytes);
    absurdBytes.writeBigUInt64LE(1n << 60n, 16); // metadata count
    await writeFile(absurd, absurdBytes);
    await expect(readGgufHeader(absurd)).rejects.toThrow(GgufTruncatedError);

    const badType = join(dir, "bad-type.gguf");
    const badTypeBytes = Buffer.from(bytes);
    const firstKeyLength = Number(badTypeBytes.readBigUInt64LE(24));
    badTypeBytes.writeUInt32LE(99, 24 + 8 + firstKeyLength);
    await writeFile(badType, badTypeBytes);
    await expect(readGgufHeader(badType)).rejects.toThrow(/unknown value type 99/);

    await expect(readGgufHeader(join(dir, "missing.gguf"))).rejects.toThrow(/missing\.gguf: file not found/);
  });

  it("reports a file cut inside its tensor data as truncated, without reading the data", async () => {
    const path = join(dir, "cut-data.gguf");
    await writeGgufFile(path, {
      metadata: [["general.architecture", ggufValue.str("llama")]],
      tensors: [{ name: "w", dims: [1024], type: GgmlType.F32, values: new Float32Array(1024) }],
    });
    const { size } = await stat(path);
    await truncate(path, size - 1000);
    const header = await readGgufHeader(path);
    expect(checkTensorLayout(header)[0]?.problem).toMatch(/needs \d+ bytes but the file has \d+ \(truncated/);
  });

  it("refuses values that do not fit their declared type", async () => {
    const path = join(dir, "refused.gguf");
    await expect(writeGgufFile(path, { metadata: [["k", ggufValue.u32(-1)]] })).rejects.toThrow(/UINT32/);
    await expect(writeGgufFile(path, { metadata: [["k", { type: GgufValueType.FLOAT32, value: "1" }]] })).rejects.toThrow(/FLOAT32/);
    await expect(
      writeGgufFile(path, { metadata: [], tensors: [{ name: "w", dims: [4], type: GgmlType.F32, values: new Float32Array(3) }] }),
    ).rejects.toThrow(/4 values\) but 3/);
    await expect(stat(path)).rejects.toThrow(); // nothing half-written
  });
});

describe("half-precision conversion", () => {
  it("rounds float32 to F16 to nearest, ties to even, with overflow and subnormals", () => {
    expect(float32ToFloat16Bits(1)).toBe(0x3c00);
    expect(float32ToFloat16Bits(-2)).toBe(0xc000);
    expect(float32ToFloat16Bits(65504)).toBe(0x7bff);
    expect(float32ToFloat16Bits(65520)).toBe(0x7c00); // rounds up to Inf
    expect(float32ToFloat16Bits(2 ** -24)).toBe(0x0001); // smallest subnormal
    expect(float32ToFloat16Bits(2 ** -25)).toBe(0x0000); // tie to even: 0
    expect(float32ToFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie to even: down
    expect(float32ToFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie to even: up
    expect(Number.isNaN(float16BitsToFloat32(float32ToFloat16Bits(NaN)))).toBe(true);
    for (let bits = 0; bits < 0x7c00; bits += 7) expect(float32ToFloat16Bits(float16BitsToFloat32(bits))).toBe(bits);
  });

  it("rounds float32 to BF16 to nearest, ties to even", () => {
    expect(float32ToBfloat16Bits(1)).toBe(0x3f80);
    expect(float32ToBfloat16Bits(1 + 2 ** -8)).toBe(0x3f80); // tie: even
    expect(float32ToBfloat16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
  });
});

/** A GGUF header whose tensor infos announce data that is not in the file. */
async function writeHeaderOnly(path: string, tensors: Array<{ name: string; dims: number[]; type: GgmlType }>): Promise<void> {
  const parts: Buffer[] = [];
  const u32 = (v: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    parts.push(b);
  };
  const u64 = (v: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    parts.push(b);
  };
  parts.push(Buffer.from("GGUF"));
  u32(3);
  u64(tensors.length);
  u64(0);
  for (const t of tensors) {
    u64(Buffer.byteLength(t.name));
    parts.push(Buffer.from(t.name));
    u32(t.dims.length);
    t.dims.forEach(u64);
    u32(t.type);
    u64(0);
  }
  const handle = await open(path, "w");
  await handle.write(Buffer.concat(parts));
  await handle.close();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
