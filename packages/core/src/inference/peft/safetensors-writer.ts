import { writeFile } from "node:fs/promises";
import { float32ToBfloat16Bits, float32ToFloat16Bits } from "../gguf/half-float.js";
import type { SafetensorsDtype } from "./safetensors.js";

export interface SafetensorsTensorToWrite {
  readonly name: string;
  readonly dtype: SafetensorsDtype;
  /** PyTorch shape, outermost first. */
  readonly shape: readonly number[];
  /** Row-major values; F16/BF16 round to nearest even. */
  readonly values: Float32Array;
}

/**
 * Writes a safetensors file (see safetensors.ts for the layout): tensors in the given order, the
 * JSON header padded with spaces to a multiple of 8 bytes as the reference implementation does.
 */
export async function writeSafetensorsFile(
  path: string,
  tensors: readonly SafetensorsTensorToWrite[],
  metadata: Readonly<Record<string, string>> = { format: "pt" },
): Promise<void> {
  const header: Record<string, unknown> = { __metadata__: metadata };
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const tensor of tensors) {
    const count = tensor.shape.reduce((a, b) => a * b, 1);
    if (count !== tensor.values.length)
      throw new Error(`tensor "${tensor.name}": shape ${JSON.stringify(tensor.shape)} needs ${count} values, got ${tensor.values.length}`);
    const bytes = encode(tensor);
    header[tensor.name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + bytes.length] };
    chunks.push(bytes);
    offset += bytes.length;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (Buffer.byteLength(json) % 8)) % 8);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  await writeFile(path, Buffer.concat([length, Buffer.from(json, "utf8"), ...chunks]));
}

function encode(tensor: SafetensorsTensorToWrite): Buffer {
  const { values } = tensor;
  if (tensor.dtype === "F32") {
    const out = Buffer.alloc(values.length * 4);
    values.forEach((v, i) => out.writeFloatLE(v, i * 4));
    return out;
  }
  const toBits = tensor.dtype === "F16" ? float32ToFloat16Bits : float32ToBfloat16Bits;
  const out = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => out.writeUInt16LE(toBits(v), i * 2));
  return out;
}
