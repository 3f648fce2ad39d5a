import type { GgmlType } from "./ggml-type.js";

/**
 * GGUF metadata value types, as numbered in the file format (gguf.h `enum gguf_type`). Kept as
 * numbers so a header can say exactly how a value was stored: llama.cpp checks some keys by
 * type (it aborts on an `adapter.lora.alpha` that is not FLOAT32), so FLOAT32 and FLOAT64 must
 * stay distinguishable.
 */
export const GgufValueType = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;
export type GgufValueType = (typeof GgufValueType)[keyof typeof GgufValueType];
export type GgufScalarType = Exclude<GgufValueType, typeof GgufValueType.ARRAY>;

const VALUE_TYPE_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(GgufValueType).map(([name, id]) => [id, name] as const));

/** The format's name of a value type (`FLOAT32`), or `type 42` for an unknown one. */
export function ggufValueTypeName(type: number): string {
  return VALUE_TYPE_NAMES.get(type) ?? `type ${type}`;
}

export function isGgufValueType(type: number): type is GgufValueType {
  return VALUE_TYPE_NAMES.has(type);
}

/**
 * A scalar as JavaScript holds it: 8/16/32-bit integers and floats are numbers, 64-bit integers
 * are bigints (exact), BOOL is a boolean and STRING a string.
 */
export type GgufScalar = number | bigint | boolean | string;

export interface GgufScalarValue {
  readonly type: GgufScalarType;
  readonly value: GgufScalar;
}

/** An array value; its items share `itemType` (arrays of arrays hold GgufArrayValue items). */
export interface GgufArrayValue {
  readonly type: typeof GgufValueType.ARRAY;
  readonly itemType: GgufValueType;
  readonly value: ReadonlyArray<GgufScalar | GgufArrayValue>;
}

export type GgufMetadataValue = GgufScalarValue | GgufArrayValue;

/** Metadata in file order. */
export type GgufMetadata = ReadonlyMap<string, GgufMetadataValue>;

export interface GgufTensorInfo {
  readonly name: string;
  /** Dimensions innermost-first (ggml `ne`): the PyTorch shape reversed. */
  readonly dims: readonly number[];
  readonly type: GgmlType;
  /** Offset of the tensor's data from the start of the data section. */
  readonly offset: number;
  /** Bytes of tensor data, from the ggml block size of `type`. */
  readonly byteLength: number;
}

/** Everything in a GGUF file before its tensor data. */
export interface GgufHeader {
  /** The path it was read from (named in every error and problem). */
  readonly file: string;
  readonly version: number;
  readonly metadata: GgufMetadata;
  readonly tensors: readonly GgufTensorInfo[];
  /** `general.alignment`, else 32. */
  readonly alignment: number;
  /** Absolute file offset where the tensor data section starts. */
  readonly dataOffset: number;
  readonly fileSize: number;
}
