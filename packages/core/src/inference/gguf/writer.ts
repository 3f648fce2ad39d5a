import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { GgmlType, ggmlTensorBytes, ggmlTypeName } from "./ggml-type.js";
import { float32ToFloat16Bits } from "./half-float.js";
import { GgufValueType, ggufValueTypeName } from "./types.js";
import type { GgufArrayValue, GgufMetadataValue, GgufScalar, GgufValueType as ValueType } from "./types.js";

/** A tensor given as float32 values, stored as F32 or converted to F16 (round to nearest even). */
export interface GgufFloatTensor {
  readonly name: string;
  /** Innermost-first (ggml `ne`), i.e. the PyTorch shape reversed. */
  readonly dims: readonly number[];
  readonly type: typeof GgmlType.F32 | typeof GgmlType.F16;
  /** Row-major values of the PyTorch shape (the innermost dim varies fastest). */
  readonly values: Float32Array;
}

/** A tensor given as already-encoded bytes of any ggml type (quantized test headers, copies). */
export interface GgufRawTensor {
  readonly name: string;
  readonly dims: readonly number[];
  readonly type: GgmlType;
  readonly bytes: Uint8Array;
}

export type GgufTensorToWrite = GgufFloatTensor | GgufRawTensor;

export interface GgufFileSpec {
  /** In the order to write; `general.alignment` (UINT32), when present, sets the alignment. */
  readonly metadata: Iterable<readonly [string, GgufMetadataValue]>;
  readonly tensors?: readonly GgufTensorToWrite[];
}

const DEFAULT_ALIGNMENT = 32;
/** ggml's limit on a tensor name, including the terminating NUL (GGML_MAX_NAME). */
const MAX_TENSOR_NAME_BYTES = 63;

/**
 * Writes a GGUF v3 file: header, metadata, tensor infos, then each tensor's data padded to the
 * alignment (offsets are exactly the running padded sizes, which llama.cpp requires). Writes to
 * a temporary name and renames, so a reader never sees half a file.
 */
export async function writeGgufFile(path: string, spec: GgufFileSpec): Promise<void> {
  const metadata = [...spec.metadata];
  const tensors = spec.tensors ?? [];
  const alignment = alignmentOf(metadata);

  const header = new ByteWriter();
  header.bytes(Buffer.from("GGUF", "latin1"));
  header.u32(3);
  header.u64(BigInt(tensors.length));
  header.u64(BigInt(metadata.length));
  const keys = new Set<string>();
  for (const [key, value] of metadata) {
    if (keys.has(key)) throw new Error(`GGUF metadata key "${key}" given twice`);
    keys.add(key);
    header.string(key);
    header.u32(value.type);
    writeValue(header, value, key);
  }

  const names = new Set<string>();
  let offset = 0;
  const encoded: Array<{ data: Uint8Array; padded: number }> = [];
  for (const tensor of tensors) {
    checkTensor(tensor, names);
    const data = encodeTensor(tensor);
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(BigInt(dim));
    header.u32(tensor.type);
    header.u64(BigInt(offset));
    const padded = padTo(data.byteLength, alignment);
    encoded.push({ data, padded });
    offset += padded;
  }
  header.pad(alignment);

  const partial = `${path}.partial-${randomBytes(4).toString("hex")}`;
  const handle = await open(partial, "w");
  try {
    await handle.write(header.toBuffer());
    for (const { data, padded } of encoded) {
      await handle.write(data);
      if (padded > data.byteLength) await handle.write(Buffer.alloc(padded - data.byteLength));
    }
    await handle.close();
    await rename(partial, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}

function alignmentOf(metadata: ReadonlyArray<readonly [string, GgufMetadataValue]>): number {
  const entry = metadata.find(([key]) => key === "general.alignment")?.[1];
  if (entry === undefined) return DEFAULT_ALIGNMENT;
  const value = entry.value;
  if (entry.type !== GgufValueType.UINT32 || typeof value !== "number" || value <= 0 || (value & (value - 1)) !== 0) {
    throw new Error("general.alignment must be a UINT32 power of 2");
  }
  return value;
}

function padTo(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}

function checkTensor(tensor: GgufTensorToWrite, names: Set<string>): void {
  if (names.has(tensor.name)) throw new Error(`tensor "${tensor.name}" given twice`);
  names.add(tensor.name);
  if (Buffer.byteLength(tensor.name) > MAX_TENSOR_NAME_BYTES) {
    throw new Error(`tensor name "${tensor.name}" is longer than ggml's ${MAX_TENSOR_NAME_BYTES} bytes`);
  }
  if (tensor.dims.length < 1 || tensor.dims.length > 4) throw new Error(`tensor "${tensor.name}" must have 1 to 4 dims`);
  if (tensor.dims.some((d) => !Number.isSafeInteger(d) || d < 0)) throw new Error(`tensor "${tensor.name}" has invalid dims`);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function encodeTensor(tensor: GgufTensorToWrite): Uint8Array {
  const bytes = ggmlTensorBytes(tensor.type, tensor.dims);
  if ("bytes" in tensor) {
    if (tensor.bytes.byteLength !== bytes) {
      throw new Error(
        `tensor "${tensor.name}" (${ggmlTypeName(tensor.type)} ${tensor.dims.join("x")}) needs ${bytes} bytes, got ${tensor.bytes.byteLength}`,
      );
    }
    return tensor.bytes;
  }
  const count = tensor.dims.reduce((a, b) => a * b, 1);
  if (tensor.values.length !== count) {
    throw new Error(
      `tensor "${tensor.name}" has dims ${tensor.dims.join("x")} (${count} values) but ${tensor.values.length} values were given`,
    );
  }
  if (tensor.type === GgmlType.F32) {
    if (LITTLE_ENDIAN) return new Uint8Array(tensor.values.buffer, tensor.values.byteOffset, tensor.values.byteLength);
    const view = new DataView(new ArrayBuffer(count * 4));
    tensor.values.forEach((v, i) => view.setFloat32(i * 4, v, true));
    return new Uint8Array(view.buffer);
  }
  const view = new DataView(new ArrayBuffer(count * 2));
  tensor.values.forEach((v, i) => view.setUint16(i * 2, float32ToFloat16Bits(v), true));
  return new Uint8Array(view.buffer);
}

function writeValue(w: ByteWriter, value: GgufMetadataValue, key: string): void {
  if (value.type === GgufValueType.ARRAY) {
    writeArray(w, value, key);
    return;
  }
  writeScalar(w, value.type, value.value, key);
}

function writeArray(w: ByteWriter, value: GgufArrayValue, key: string): void {
  w.u32(value.itemType);
  w.u64(BigInt(value.value.length));
  for (const item of value.value) {
    if (value.itemType === GgufValueType.ARRAY) {
      if (typeof item !== "object") throw new TypeError(`"${key}" is an array of arrays but holds a ${typeof item}`);
      writeArray(w, item, key);
    } else {
      if (typeof item === "object") throw new TypeError(`"${key}" holds an array where a ${ggufValueTypeName(value.itemType)} belongs`);
      writeScalar(w, value.itemType, item, key);
    }
  }
}

const INT_RANGES: Partial<Record<ValueType, readonly [number, number]>> = {
  [GgufValueType.UINT8]: [0, 0xff],
  [GgufValueType.INT8]: [-0x80, 0x7f],
  [GgufValueType.UINT16]: [0, 0xffff],
  [GgufValueType.INT16]: [-0x8000, 0x7fff],
  [GgufValueType.UINT32]: [0, 0xffffffff],
  [GgufValueType.INT32]: [-0x80000000, 0x7fffffff],
};

function writeScalar(w: ByteWriter, type: ValueType, value: GgufScalar, key: string): void {
  const wrong = (expected: string) =>
    new TypeError(`"${key}" is declared ${ggufValueTypeName(type)} but its value ${String(value)} is not ${expected}`);
  switch (type) {
    case GgufValueType.STRING:
      if (typeof value !== "string") throw wrong("a string");
      w.string(value);
      return;
    case GgufValueType.BOOL:
      if (typeof value !== "boolean") throw wrong("a boolean");
      w.u8(value ? 1 : 0);
      return;
    case GgufValueType.UINT64:
    case GgufValueType.INT64: {
      if (typeof value !== "bigint") throw wrong("a bigint");
      if (type === GgufValueType.UINT64) w.u64(value);
      else w.i64(value);
      return;
    }
    case GgufValueType.FLOAT32:
    case GgufValueType.FLOAT64:
      if (typeof value !== "number") throw wrong("a number");
      if (type === GgufValueType.FLOAT32) w.f32(value);
      else w.f64(value);
      return;
    default: {
      const range = INT_RANGES[type];
      if (range === undefined) throw new TypeError(`"${key}" has unknown value type ${type}`);
      if (typeof value !== "number" || !Number.isInteger(value) || value < range[0] || value > range[1]) {
        throw wrong(`an integer in [${range[0]}, ${range[1]}]`);
      }
      w.int(type, value);
    }
  }
}

/** A growable little-endian byte buffer for the header. */
class ByteWriter {
  private buffer = Buffer.alloc(64 * 1024);
  private length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const next = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  bytes(data: Uint8Array): void {
    this.reserve(data.byteLength);
    this.buffer.set(data, this.length);
    this.length += data.byteLength;
  }

  u8(v: number): void {
    this.reserve(1);
    this.buffer.writeUInt8(v, this.length);
    this.length += 1;
  }

  u32(v: number): void {
    this.reserve(4);
    this.buffer.writeUInt32LE(v, this.length);
    this.length += 4;
  }

  u64(v: bigint): void {
    this.reserve(8);
    this.buffer.writeBigUInt64LE(v, this.length);
    this.length += 8;
  }

  i64(v: bigint): void {
    this.reserve(8);
    this.buffer.writeBigInt64LE(v, this.length);
    this.length += 8;
  }

  f32(v: number): void {
    this.reserve(4);
    this.buffer.writeFloatLE(v, this.length);
    this.length += 4;
  }

  f64(v: number): void {
    this.reserve(8);
    this.buffer.writeDoubleLE(v, this.length);
    this.length += 8;
  }

  int(type: ValueType, v: number): void {
    const size =
      type === GgufValueType.UINT8 || type === GgufValueType.INT8
        ? 1
        : type === GgufValueType.UINT16 || type === GgufValueType.INT16
          ? 2
          : 4;
    this.reserve(size);
    const signed = type === GgufValueType.INT8 || type === GgufValueType.INT16 || type === GgufValueType.INT32;
    if (signed) this.buffer.writeIntLE(v, this.length, size);
    else this.buffer.writeUIntLE(v, this.length, size);
    this.length += size;
  }

  string(s: string): void {
    const data = Buffer.from(s, "utf8");
    this.u64(BigInt(data.byteLength));
    this.bytes(data);
  }

  pad(alignment: number): void {
    const padded = padTo(this.length, alignment);
    this.reserve(padded - this.length);
    this.length = padded; // Buffer.alloc zero-filled the gap
  }

  toBuffer(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}
