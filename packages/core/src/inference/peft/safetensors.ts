import { readFile } from "node:fs/promises";
import { bfloat16BitsToFloat32, float16BitsToFloat32 } from "../gguf/half-float.js";

/**
 * A safetensors file: an 8-byte little-endian header length N, N bytes of JSON
 * `{"<name>": {"dtype": "F32", "shape": [r, in], "data_offsets": [begin, end]}, "__metadata__": {...}}`
 * (offsets relative to the end of the header), then the raw little-endian tensor bytes.
 */
export type SafetensorsDtype = "F32" | "F16" | "BF16";

export interface SafetensorsTensorInfo {
  readonly name: string;
  /** The stored dtype as written in the header (F32, F16, BF16, or another the reader cannot decode). */
  readonly dtype: string;
  /** PyTorch shape, outermost first. */
  readonly shape: readonly number[];
  readonly byteLength: number;
}

export class SafetensorsFormatError extends Error {
  override readonly name = "SafetensorsFormatError";
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

const DTYPE_BYTES: Readonly<Record<string, number>> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U8: 1,
  BOOL: 1,
  F8_E4M3: 1,
  F8_E5M2: 1,
};

/** Upper bound on the JSON header (the format's own limit is 100 MB). */
const MAX_HEADER_BYTES = 100 * 1024 * 1024;

export class SafetensorsFile {
  private constructor(
    readonly file: string,
    readonly tensors: ReadonlyMap<string, SafetensorsTensorInfo>,
    readonly metadata: Readonly<Record<string, string>>,
    private readonly data: Buffer,
    private readonly offsets: ReadonlyMap<string, number>,
  ) {}

  /** Reads and checks the whole file (adapters are small: megabytes to a few hundred). */
  static async read(file: string): Promise<SafetensorsFile> {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new SafetensorsFormatError(file, code === "ENOENT" ? "file not found" : `cannot read: ${(error as Error).message}`);
    }
    return SafetensorsFile.parse(file, bytes);
  }

  static parse(file: string, bytes: Buffer): SafetensorsFile {
    if (bytes.length < 8) throw new SafetensorsFormatError(file, `only ${bytes.length} bytes; not a safetensors file`);
    const headerLength = bytes.readBigUInt64LE(0);
    if (headerLength > BigInt(Math.min(MAX_HEADER_BYTES, bytes.length - 8))) {
      throw new SafetensorsFormatError(
        file,
        `header length ${headerLength} does not fit the ${bytes.length}-byte file (truncated or not safetensors)`,
      );
    }
    const dataStart = 8 + Number(headerLength);
    let header: unknown;
    try {
      header = JSON.parse(bytes.subarray(8, dataStart).toString("utf8"));
    } catch {
      throw new SafetensorsFormatError(file, "the header is not valid JSON (not a safetensors file?)");
    }
    if (typeof header !== "object" || header === null || Array.isArray(header)) {
      throw new SafetensorsFormatError(file, "the header is not a JSON object");
    }
    const data = bytes.subarray(dataStart);
    const tensors = new Map<string, SafetensorsTensorInfo>();
    const offsets = new Map<string, number>();
    let metadata: Record<string, string> = {};
    for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
      if (name === "__metadata__") {
        metadata = (entry ?? {}) as Record<string, string>;
        continue;
      }
      const info = parseEntry(file, name, entry, data.length);
      tensors.set(name, info.tensor);
      offsets.set(name, info.begin);
    }
    return new SafetensorsFile(file, tensors, metadata, data, offsets);
  }

  /** A tensor's values as float32 (F32 as stored; F16 and BF16 widened exactly). */
  values(name: string): Float32Array {
    const info = this.tensors.get(name);
    const begin = this.offsets.get(name);
    if (info === undefined || begin === undefined) throw new SafetensorsFormatError(this.file, `no tensor "${name}"`);
    const bytes = this.data.subarray(begin, begin + info.byteLength);
    const count = info.byteLength / (DTYPE_BYTES[info.dtype] ?? 1);
    const out = new Float32Array(count);
    switch (info.dtype) {
      case "F32":
        for (let i = 0; i < count; i++) out[i] = bytes.readFloatLE(i * 4);
        return out;
      case "F16":
        for (let i = 0; i < count; i++) out[i] = float16BitsToFloat32(bytes.readUInt16LE(i * 2));
        return out;
      case "BF16":
        for (let i = 0; i < count; i++) out[i] = bfloat16BitsToFloat32(bytes.readUInt16LE(i * 2));
        return out;
      default:
        throw new SafetensorsFormatError(this.file, `tensor "${name}" is ${info.dtype}; only F32, F16 and BF16 can be read`);
    }
  }
}

function parseEntry(file: string, name: string, entry: unknown, dataLength: number): { tensor: SafetensorsTensorInfo; begin: number } {
  const bad = (why: string) => new SafetensorsFormatError(file, `tensor "${name}": ${why}`);
  if (typeof entry !== "object" || entry === null) throw bad("header entry is not an object");
  const { dtype, shape, data_offsets: offsets } = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
  if (typeof dtype !== "string" || DTYPE_BYTES[dtype] === undefined) throw bad(`unknown dtype ${String(dtype)}`);
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) throw bad("shape is not a list of sizes");
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0)) {
    throw bad("data_offsets is not [begin, end]");
  }
  const [begin, end] = offsets as [number, number];
  const count = (shape as number[]).reduce((a, b) => a * b, 1);
  const byteLength = count * (DTYPE_BYTES[dtype] ?? 1);
  if (end - begin !== byteLength)
    throw bad(`data_offsets span ${end - begin} bytes but ${dtype} ${JSON.stringify(shape)} needs ${byteLength}`);
  if (end > dataLength) throw bad(`data ends at ${end} but the file holds only ${dataLength} data bytes (truncated)`);
  return { tensor: { name, dtype, shape: shape as number[], byteLength }, begin };
}
