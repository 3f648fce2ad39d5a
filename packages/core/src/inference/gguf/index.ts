// The GGUF layer of @local-mcp/core/inference: header reader, writer, validation before
// llama.cpp sees a file, and the memory estimate. No node-llama-cpp import here.
export { GgufCorruptError, GgufTruncatedError } from "./errors.js";
export { GgmlType, ggmlTensorBytes } from "./ggml-type.js";
export { float16BitsToFloat32, float32ToBfloat16Bits, float32ToFloat16Bits, roundToBfloat16, roundToFloat16 } from "./half-float.js";
export { readLoadableLoraHeader, readLoadableModelHeader } from "./loadable.js";
export { estimateModelMemory } from "./memory-estimate.js";
export { ggufValue, metadataNumber, metadataString } from "./metadata-values.js";
export { throwIfProblems } from "./problems.js";
export type { GgufProblem } from "./problems.js";
export { readGgufHeader } from "./reader.js";
export { checkTensorLayout } from "./tensor-layout.js";
export { GgufValueType } from "./types.js";
export type { GgufHeader, GgufMetadataValue, GgufTensorInfo } from "./types.js";
export { LORA_ALPHA_KEY, validateLoraAdapter } from "./validate-lora.js";
export { modelHyperparameters, validateModelHeader } from "./validate-model.js";
export { writeGgufFile } from "./writer.js";
