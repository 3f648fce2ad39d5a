import { GgufValueType, ggufValueTypeName } from "./types.js";
import type { GgufArrayValue, GgufHeader, GgufMetadataValue, GgufScalar, GgufScalarValue } from "./types.js";

/**
 * Builders for typed metadata values, so writers state the stored type explicitly:
 * `ggufValue.f32(16)` is FLOAT32 16, `ggufValue.u32(16)` is UINT32 16.
 */
export const ggufValue = {
  u8: (value: number): GgufScalarValue => ({ type: GgufValueType.UINT8, value }),
  i8: (value: number): GgufScalarValue => ({ type: GgufValueType.INT8, value }),
  u16: (value: number): GgufScalarValue => ({ type: GgufValueType.UINT16, value }),
  i16: (value: number): GgufScalarValue => ({ type: GgufValueType.INT16, value }),
  u32: (value: number): GgufScalarValue => ({ type: GgufValueType.UINT32, value }),
  i32: (value: number): GgufScalarValue => ({ type: GgufValueType.INT32, value }),
  f32: (value: number): GgufScalarValue => ({ type: GgufValueType.FLOAT32, value }),
  f64: (value: number): GgufScalarValue => ({ type: GgufValueType.FLOAT64, value }),
  u64: (value: bigint): GgufScalarValue => ({ type: GgufValueType.UINT64, value }),
  i64: (value: bigint): GgufScalarValue => ({ type: GgufValueType.INT64, value }),
  bool: (value: boolean): GgufScalarValue => ({ type: GgufValueType.BOOL, value }),
  str: (value: string): GgufScalarValue => ({ type: GgufValueType.STRING, value }),
  array: (itemType: GgufValueType, value: ReadonlyArray<GgufScalar | GgufArrayValue>): GgufArrayValue => ({
    type: GgufValueType.ARRAY,
    itemType,
    value,
  }),
} as const;

const INTEGER_TYPES: ReadonlySet<number> = new Set([
  GgufValueType.UINT8,
  GgufValueType.INT8,
  GgufValueType.UINT16,
  GgufValueType.INT16,
  GgufValueType.UINT32,
  GgufValueType.INT32,
  GgufValueType.UINT64,
  GgufValueType.INT64,
]);

export function isIntegerValueType(type: number): boolean {
  return INTEGER_TYPES.has(type);
}

/** `UINT32`, `ARRAY[STRING]`: how a value is stored, for messages. */
export function describeValueType(value: GgufMetadataValue): string {
  return value.type === GgufValueType.ARRAY ? `ARRAY[${ggufValueTypeName(value.itemType)}]` : ggufValueTypeName(value.type);
}

/** The string value of `key`, or undefined when absent or not a STRING. */
export function metadataString(header: Pick<GgufHeader, "metadata">, key: string): string | undefined {
  const entry = header.metadata.get(key);
  return entry?.type === GgufValueType.STRING ? (entry.value as string) : undefined;
}

/** A numeric scalar of any integer or float type as a number, or undefined. */
export function metadataNumber(header: Pick<GgufHeader, "metadata">, key: string): number | undefined {
  const entry = header.metadata.get(key);
  if (entry === undefined || entry.type === GgufValueType.ARRAY) return undefined;
  return typeof entry.value === "number" || typeof entry.value === "bigint" ? Number(entry.value) : undefined;
}

/**
 * A per-layer hyperparameter (head counts, feed-forward length): llama.cpp accepts a scalar or an
 * array with one integer per layer. Returns the value for `layer` (0 for a scalar).
 */
export function metadataLayerNumber(header: Pick<GgufHeader, "metadata">, key: string, layer = 0): number | undefined {
  const entry = header.metadata.get(key);
  if (entry === undefined) return undefined;
  if (entry.type !== GgufValueType.ARRAY) return metadataNumber(header, key);
  const item = entry.value[layer];
  return typeof item === "number" || typeof item === "bigint" ? Number(item) : undefined;
}

/** The items of an array value, or undefined when absent or not an array. */
export function metadataArray(header: Pick<GgufHeader, "metadata">, key: string): GgufArrayValue | undefined {
  const entry = header.metadata.get(key);
  return entry?.type === GgufValueType.ARRAY ? entry : undefined;
}

/** `general.architecture` (llama, qwen2, ...). */
export function ggufArchitecture(header: Pick<GgufHeader, "metadata">): string | undefined {
  return metadataString(header, "general.architecture");
}
