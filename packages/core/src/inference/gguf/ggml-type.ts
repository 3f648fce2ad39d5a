/**
 * ggml tensor types as numbered in GGUF files (ggml.h `enum ggml_type`), with the block layout
 * that gives their size: a row of `ne[0]` values takes `ne[0] / blockSize * typeSize` bytes.
 * Quantized types store blocks of values (32 for Q4_0/Q8_0, 256 for the K-quants); the byte
 * counts are the `sizeof(block_*)` values of ggml-common.h. Numbers 4, 5, 31-33 and 36-38 were
 * removed from the format and are not listed.
 */
export const GgmlType = {
  F32: 0,
  F16: 1,
  Q4_0: 2,
  Q4_1: 3,
  Q5_0: 6,
  Q5_1: 7,
  Q8_0: 8,
  Q8_1: 9,
  Q2_K: 10,
  Q3_K: 11,
  Q4_K: 12,
  Q5_K: 13,
  Q6_K: 14,
  Q8_K: 15,
  IQ2_XXS: 16,
  IQ2_XS: 17,
  IQ3_XXS: 18,
  IQ1_S: 19,
  IQ4_NL: 20,
  IQ3_S: 21,
  IQ2_S: 22,
  IQ4_XS: 23,
  I8: 24,
  I16: 25,
  I32: 26,
  I64: 27,
  F64: 28,
  IQ1_M: 29,
  BF16: 30,
  TQ1_0: 34,
  TQ2_0: 35,
  MXFP4: 39,
  NVFP4: 40,
  Q1_0: 41,
  Q2_0: 42,
} as const;
export type GgmlType = (typeof GgmlType)[keyof typeof GgmlType];

export interface GgmlTypeTraits {
  readonly name: string;
  /** Values per block. */
  readonly blockSize: number;
  /** Bytes per block. */
  readonly typeSize: number;
}

const QK_K = 256;

// [type, values per block, bytes per block]; bytes are sizeof(block_*) from ggml-common.h.
const LAYOUT: ReadonlyArray<readonly [GgmlType, number, number]> = [
  [GgmlType.F32, 1, 4],
  [GgmlType.F16, 1, 2],
  [GgmlType.Q4_0, 32, 2 + 16],
  [GgmlType.Q4_1, 32, 4 + 16],
  [GgmlType.Q5_0, 32, 2 + 4 + 16],
  [GgmlType.Q5_1, 32, 4 + 4 + 16],
  [GgmlType.Q8_0, 32, 2 + 32],
  [GgmlType.Q8_1, 32, 4 + 32],
  [GgmlType.Q2_K, QK_K, 4 + 16 + 64],
  [GgmlType.Q3_K, QK_K, 2 + 64 + 32 + 12],
  [GgmlType.Q4_K, QK_K, 4 + 12 + 128],
  [GgmlType.Q5_K, QK_K, 4 + 12 + 128 + 32],
  [GgmlType.Q6_K, QK_K, 2 + 16 + 192],
  [GgmlType.Q8_K, QK_K, 4 + 256 + 32],
  [GgmlType.IQ2_XXS, QK_K, 2 + 64],
  [GgmlType.IQ2_XS, QK_K, 2 + 64 + 8],
  [GgmlType.IQ3_XXS, QK_K, 2 + 96],
  [GgmlType.IQ1_S, QK_K, 2 + 32 + 16],
  [GgmlType.IQ4_NL, 32, 2 + 16],
  [GgmlType.IQ3_S, QK_K, 2 + 104 + 4],
  [GgmlType.IQ2_S, QK_K, 2 + 64 + 16],
  [GgmlType.IQ4_XS, QK_K, 2 + 2 + 4 + 128],
  [GgmlType.I8, 1, 1],
  [GgmlType.I16, 1, 2],
  [GgmlType.I32, 1, 4],
  [GgmlType.I64, 1, 8],
  [GgmlType.F64, 1, 8],
  [GgmlType.IQ1_M, QK_K, 32 + 16 + 8],
  [GgmlType.BF16, 1, 2],
  [GgmlType.TQ1_0, QK_K, 2 + 4 + 48],
  [GgmlType.TQ2_0, QK_K, 2 + 64],
  [GgmlType.MXFP4, 32, 1 + 16],
  [GgmlType.NVFP4, 64, 4 + 32],
  [GgmlType.Q1_0, 128, 2 + 16],
  [GgmlType.Q2_0, 64, 2 + 16],
];

const NAMES: ReadonlyMap<number, string> = new Map(Object.entries(GgmlType).map(([name, id]) => [id, name] as const));

const TRAITS: ReadonlyMap<number, GgmlTypeTraits> = new Map(
  LAYOUT.map(([type, blockSize, typeSize]) => [type, { name: NAMES.get(type) ?? String(type), blockSize, typeSize }] as const),
);

export function isGgmlType(type: number): type is GgmlType {
  return TRAITS.has(type);
}

export function ggmlTypeTraits(type: number): GgmlTypeTraits | undefined {
  return TRAITS.get(type);
}

export function ggmlTypeName(type: number): string {
  return NAMES.get(type) ?? `type ${type}`;
}

/**
 * Bytes of a tensor's data: `ne[0] / blockSize * typeSize` per row, times the other dims.
 * Throws a RangeError when `ne[0]` is not a whole number of blocks (ggml refuses such tensors).
 */
export function ggmlTensorBytes(type: GgmlType, dims: readonly number[]): number {
  const traits = TRAITS.get(type);
  if (traits === undefined) throw new RangeError(`unknown ggml type ${type}`);
  const inner = dims[0] ?? 1;
  if (inner % traits.blockSize !== 0) {
    throw new RangeError(`${traits.name} rows need a multiple of ${traits.blockSize} values, got ${inner}`);
  }
  let rows = 1;
  for (let i = 1; i < dims.length; i++) rows *= dims[i] ?? 1;
  return (inner / traits.blockSize) * traits.typeSize * rows;
}

/** Bytes per value of an unquantized or quantized type, averaged over a block (KV cache sizing). */
export function ggmlBytesPerValue(type: GgmlType): number {
  const traits = TRAITS.get(type);
  if (traits === undefined) throw new RangeError(`unknown ggml type ${type}`);
  return traits.typeSize / traits.blockSize;
}
