/**
 * IEEE half precision (F16) and bfloat16 (BF16) conversions. Node 20 has no Float16Array, so
 * the bits are computed here. float32 → half rounds to nearest, ties to even (what numpy and
 * PyTorch do), so a value that came from an F16 tensor converts back to the same bits.
 */
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function float32ToFloat16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  const mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200); // Inf, NaN
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00; // too large: Inf
  if (halfExponent <= 0) {
    // Subnormal half: the value in units of 2^-24 is (1.mantissa) * 2^(exponent-126+...), i.e.
    // the 24-bit significand shifted right by (126 - exponent).
    const shift = 126 - exponent;
    if (shift > 24) return sign; // below half the smallest subnormal: ±0
    const significand = mantissa | 0x800000;
    let bits = significand >>> shift;
    const rest = significand & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rest > half || (rest === half && (bits & 1) === 1)) bits++;
    return sign | bits;
  }
  let bits = (halfExponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (bits & 1) === 1)) bits++; // a carry may reach Inf: correct
  return sign | bits;
}

export function float16BitsToFloat32(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** bfloat16 is the top half of a float32. Rounds to nearest, ties to even; NaN stays NaN. */
export function float32ToBfloat16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  if ((x & 0x7fffffff) > 0x7f800000) return ((x >>> 16) | 0x40) & 0xffff;
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
}

export function bfloat16BitsToFloat32(bits: number): number {
  u32[0] = (bits & 0xffff) << 16;
  return f32[0] ?? 0;
}

/** Rounds every value to the nearest F16 (what storing as F16 and reading back gives). */
export function roundToFloat16(values: Float32Array): Float32Array {
  return values.map((v) => float16BitsToFloat32(float32ToFloat16Bits(v)));
}

/** Rounds every value to the nearest BF16. */
export function roundToBfloat16(values: Float32Array): Float32Array {
  return values.map((v) => bfloat16BitsToFloat32(float32ToBfloat16Bits(v)));
}
