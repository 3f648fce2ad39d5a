import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { GgufCorruptError, GgufFormatError, GgufTruncatedError } from "./errors.js";
import { ggmlTensorBytes, ggmlTypeTraits, isGgmlType } from "./ggml-type.js";
import { GgufValueType, ggufValueTypeName, isGgufValueType } from "./types.js";
import type { GgufArrayValue, GgufHeader, GgufMetadataValue, GgufScalar, GgufTensorInfo } from "./types.js";

/**
 * Reads the header of a GGUF file: version, metadata with value types, tensor infos and where
 * the data section starts. It reads the file front to back in windows and stops at the end of
 * the tensor infos, so tensor data is never read (a header with a 150k-token vocabulary is a few
 * MB; the data behind it can be many GB). Windows are 1 MiB, so at most that much is read past
 * the header.
 *
 * Layout (little-endian, GGUF v2/v3): magic "GGUF", u32 version, u64 tensor count, u64 metadata
 * count; each metadata entry is a string key, a u32 value type and the value (strings are a u64
 * length and UTF-8 bytes; arrays a u32 item type, a u64 count and the items); each tensor info is
 * a name, a u32 dimension count, u64 dims innermost-first, a u32 ggml type and a u64 offset into
 * the data section, which starts at the next multiple of `general.alignment` (default 32).
 */
export async function readGgufHeader(file: string): Promise<GgufHeader> {
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new GgufFormatError(file, code === "ENOENT" ? "file not found" : `cannot open: ${(error as Error).message}`);
  }
  try {
    const { size } = await handle.stat();
    const source = new WindowedReader(file, handle, size);
    return await parseHeader(source);
  } finally {
    await handle.close();
  }
}

/** ggml refuses tensors with more dimensions (GGML_MAX_DIMS). */
const MAX_DIMS = 4;
/** llama.cpp's limit on a single string (GGUF_MAX_STRING_LENGTH). */
const MAX_STRING_BYTES = 1024 * 1024 * 1024;
const DEFAULT_ALIGNMENT = 32;
const MAGIC = 0x46554747; // "GGUF" read as a little-endian u32

/** Smallest encodings, to reject counts that could never fit in the rest of the file. */
const MIN_BYTES: Record<GgufValueType, number> = {
  [GgufValueType.UINT8]: 1,
  [GgufValueType.INT8]: 1,
  [GgufValueType.UINT16]: 2,
  [GgufValueType.INT16]: 2,
  [GgufValueType.UINT32]: 4,
  [GgufValueType.INT32]: 4,
  [GgufValueType.FLOAT32]: 4,
  [GgufValueType.BOOL]: 1,
  [GgufValueType.STRING]: 8,
  [GgufValueType.ARRAY]: 12,
  [GgufValueType.UINT64]: 8,
  [GgufValueType.INT64]: 8,
  [GgufValueType.FLOAT64]: 8,
};

async function parseHeader(r: WindowedReader): Promise<GgufHeader> {
  const file = r.file;
  if (r.size < 4) throw new GgufTruncatedError(file, `only ${r.size} bytes; a GGUF file starts with 24 header bytes`);
  const magic = await r.u32();
  if (magic !== MAGIC) {
    throw new GgufCorruptError(file, `not a GGUF file (the first bytes are ${describeMagic(magic)}, expected "GGUF")`, 0);
  }
  const version = await r.u32();
  if (version === 1) throw new GgufCorruptError(file, "GGUF version 1 is no longer supported by llama.cpp; convert the model again", 4);
  if (version > 0xffff)
    throw new GgufCorruptError(file, `GGUF version ${version} looks byte-swapped (big-endian files are not supported)`, 4);
  if (version !== 2 && version !== 3)
    throw new GgufCorruptError(file, `unsupported GGUF version ${version} (this reader knows 2 and 3)`, 4);

  const tensorCount = await r.count("tensor count", 8 + 4 + 4 + 8);
  const metadataCount = await r.count("metadata count", 8 + 4 + 1);

  const metadata = new Map<string, GgufMetadataValue>();
  for (let i = 0; i < metadataCount; i++) {
    const keyAt = r.position;
    const key = await r.string();
    if (key.length === 0) throw new GgufCorruptError(file, `metadata entry ${i} has an empty key`, keyAt);
    if (metadata.has(key)) throw new GgufCorruptError(file, `duplicate metadata key "${key}"`, keyAt);
    const type = await r.valueType(`metadata "${key}"`);
    metadata.set(key, await readValue(r, type, key));
  }

  const alignmentValue = metadata.get("general.alignment");
  let alignment = DEFAULT_ALIGNMENT;
  if (alignmentValue !== undefined) {
    if (alignmentValue.type !== GgufValueType.UINT32) {
      throw new GgufCorruptError(file, `general.alignment must be UINT32, not ${ggufValueTypeName(alignmentValue.type)}`);
    }
    alignment = alignmentValue.value as number;
    if (alignment === 0 || (alignment & (alignment - 1)) !== 0) {
      throw new GgufCorruptError(file, `general.alignment ${alignment} is not a power of 2`);
    }
  }

  const tensors: GgufTensorInfo[] = [];
  const names = new Set<string>();
  for (let i = 0; i < tensorCount; i++) {
    const at = r.position;
    const name = await r.string();
    if (names.has(name)) throw new GgufCorruptError(file, `duplicate tensor name "${name}"`, at);
    names.add(name);
    const nDims = await r.u32();
    if (nDims > MAX_DIMS) throw new GgufCorruptError(file, `tensor "${name}" has ${nDims} dimensions; ggml allows at most ${MAX_DIMS}`, at);
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(await r.safeU64(`dimension ${d} of tensor "${name}"`));
    const type = await r.u32();
    if (!isGgmlType(type)) throw new GgufCorruptError(file, `tensor "${name}" has unknown ggml type ${type}`, at);
    const blockSize = ggmlTypeTraits(type)?.blockSize ?? 1;
    if ((dims[0] ?? 1) % blockSize !== 0) {
      throw new GgufCorruptError(
        file,
        `tensor "${name}" has ${dims[0]} values per row, not a multiple of its type's block of ${blockSize}`,
        at,
      );
    }
    const offset = await r.safeU64(`offset of tensor "${name}"`);
    tensors.push({ name, dims, type, offset, byteLength: ggmlTensorBytes(type, dims) });
  }

  const dataOffset = Math.ceil(r.position / alignment) * alignment;
  return { file, version, metadata, tensors, alignment, dataOffset, fileSize: r.size };
}

async function readValue(r: WindowedReader, type: GgufValueType, key: string): Promise<GgufMetadataValue> {
  if (type === GgufValueType.ARRAY) return readArray(r, key);
  return { type, value: await readScalar(r, type) };
}

async function readArray(r: WindowedReader, key: string): Promise<GgufArrayValue> {
  const itemType = await r.valueType(`items of "${key}"`);
  const count = await r.count(`item count of "${key}"`, MIN_BYTES[itemType]);
  const items: Array<GgufScalar | GgufArrayValue> = new Array(count);
  for (let i = 0; i < count; i++) {
    // Most items are already in the read window: decode them without an await each.
    items[i] =
      itemType === GgufValueType.ARRAY
        ? await readArray(r, `${key}[${i}]`)
        : (readBufferedScalar(r, itemType) ?? (await readScalar(r, itemType)));
  }
  return { type: GgufValueType.ARRAY, itemType, value: items };
}

async function readScalar(r: WindowedReader, type: Exclude<GgufValueType, 9>): Promise<GgufScalar> {
  if (type === GgufValueType.STRING) return r.string();
  return decodeScalar(await r.take(MIN_BYTES[type]), type);
}

/** The next scalar when its bytes are already in the window, else undefined (nothing consumed). */
function readBufferedScalar(r: WindowedReader, type: Exclude<GgufValueType, 9>): GgufScalar | undefined {
  if (type === GgufValueType.STRING) return r.bufferedString();
  const view = r.takeBuffered(MIN_BYTES[type]);
  return view === undefined ? undefined : decodeScalar(view, type);
}

function decodeScalar(view: DataView, type: Exclude<GgufValueType, 8 | 9>): GgufScalar {
  switch (type) {
    case GgufValueType.BOOL:
      return view.getUint8(0) !== 0;
    case GgufValueType.UINT8:
      return view.getUint8(0);
    case GgufValueType.INT8:
      return view.getInt8(0);
    case GgufValueType.UINT16:
      return view.getUint16(0, true);
    case GgufValueType.INT16:
      return view.getInt16(0, true);
    case GgufValueType.UINT32:
      return view.getUint32(0, true);
    case GgufValueType.INT32:
      return view.getInt32(0, true);
    case GgufValueType.FLOAT32:
      return view.getFloat32(0, true);
    case GgufValueType.UINT64:
      return view.getBigUint64(0, true);
    case GgufValueType.INT64:
      return view.getBigInt64(0, true);
    case GgufValueType.FLOAT64:
      return view.getFloat64(0, true);
  }
}

function describeMagic(magic: number): string {
  const bytes = [magic & 0xff, (magic >>> 8) & 0xff, (magic >>> 16) & 0xff, magic >>> 24];
  return bytes.map((b) => b.toString(16).padStart(2, "0")).join(" ");
}

const WINDOW_BYTES = 1024 * 1024;

/** Sequential reads through a window of the file; only the bytes asked for are read. */
class WindowedReader {
  position = 0;
  private window = Buffer.alloc(0);
  private windowStart = 0;

  constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  /** The next `n` bytes when they are already in the window (advancing past them), else undefined. */
  takeBuffered(n: number): DataView | undefined {
    const offset = this.position - this.windowStart;
    if (offset < 0 || offset + n > this.window.length) return undefined;
    this.position += n;
    return new DataView(this.window.buffer, this.window.byteOffset + offset, n);
  }

  /** The next string when all of it is in the window, else undefined (nothing consumed). */
  bufferedString(): string | undefined {
    const offset = this.position - this.windowStart;
    if (offset < 0 || offset + 8 > this.window.length) return undefined;
    const length = this.window.readBigUInt64LE(offset);
    if (BigInt(offset + 8) + length > BigInt(this.window.length)) return undefined;
    const start = offset + 8;
    const end = start + Number(length);
    this.position += 8 + Number(length);
    return this.window.toString("utf8", start, end);
  }

  /** A view of the next `n` bytes; advances past them. */
  async take(n: number): Promise<DataView> {
    const start = this.position;
    if (start + n > this.size) {
      throw new GgufTruncatedError(
        this.file,
        `the file ends after ${this.size} bytes but the header needs ${start + n - this.size} more`,
        start,
      );
    }
    const windowEnd = this.windowStart + this.window.length;
    if (start < this.windowStart || start + n > windowEnd) {
      const length = Math.min(Math.max(n, WINDOW_BYTES), this.size - start);
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await this.handle.read(buffer, 0, length, start);
      if (bytesRead < n) throw new GgufTruncatedError(this.file, `could read only ${bytesRead} of ${n} bytes`, start);
      this.window = buffer.subarray(0, bytesRead);
      this.windowStart = start;
    }
    this.position = start + n;
    const offset = start - this.windowStart;
    return new DataView(this.window.buffer, this.window.byteOffset + offset, n);
  }

  async u32(): Promise<number> {
    return (await this.take(4)).getUint32(0, true);
  }

  /** A u64 that must fit a JavaScript number exactly (sizes and offsets). */
  async safeU64(what: string): Promise<number> {
    const at = this.position;
    const value = (await this.take(8)).getBigUint64(0, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufCorruptError(this.file, `${what} is ${value}, beyond any real file`, at);
    return Number(value);
  }

  /** A u64 count of items of at least `minItemBytes` each, checked against the bytes left. */
  async count(what: string, minItemBytes: number): Promise<number> {
    const at = this.position;
    const value = (await this.take(8)).getBigUint64(0, true);
    const left = this.size - this.position;
    if (value * BigInt(minItemBytes) > BigInt(left)) {
      throw new GgufTruncatedError(this.file, `${what} is ${value} but only ${left} bytes follow (truncated or corrupt)`, at);
    }
    return Number(value);
  }

  async valueType(what: string): Promise<GgufValueType> {
    const at = this.position;
    const type = await this.u32();
    if (!isGgufValueType(type)) throw new GgufCorruptError(this.file, `${what} has unknown value type ${type}`, at);
    return type;
  }

  async string(): Promise<string> {
    const at = this.position;
    const length = await this.count("string length", 1);
    if (length > MAX_STRING_BYTES) throw new GgufCorruptError(this.file, `string of ${length} bytes is longer than llama.cpp accepts`, at);
    if (length === 0) return "";
    const view = await this.take(length);
    return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("utf8");
  }
}
