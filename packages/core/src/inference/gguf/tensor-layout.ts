import type { GgufProblem } from "./problems.js";
import type { GgufHeader } from "./types.js";

/**
 * Checks where the tensor data lies without reading it: llama.cpp's GGUF loader requires each
 * tensor's offset to be exactly the sum of the previous tensors' sizes, each padded to the
 * alignment, and all data to lie inside the file (a shorter file is an interrupted download).
 */
export function checkTensorLayout(header: GgufHeader): GgufProblem[] {
  const problems: GgufProblem[] = [];
  let expected = 0;
  for (const tensor of header.tensors) {
    if (tensor.offset !== expected) {
      problems.push({
        file: header.file,
        problem: `tensor "${tensor.name}" starts at data offset ${tensor.offset}, expected ${expected} (corrupt tensor table)`,
      });
      break;
    }
    expected += Math.ceil(tensor.byteLength / header.alignment) * header.alignment;
  }
  const last = header.tensors.reduce((end, t) => Math.max(end, t.offset + t.byteLength), 0);
  const dataEnd = header.dataOffset + last;
  if (header.tensors.length > 0 && dataEnd > header.fileSize) {
    problems.push({
      file: header.file,
      problem: `tensor data needs ${dataEnd} bytes but the file has ${header.fileSize} (truncated: re-download or re-convert it)`,
    });
  }
  return problems;
}
