// The GGUF layer of @local-mcp/core/inference: header reader, writer, validation before
// llama.cpp sees a file, and the memory estimate. No node-llama-cpp import here.
export { GgufCorruptError, GgufFormatError, GgufTruncatedError } from "./errors.js";
export { GgmlType, ggmlBytesPerValue, ggmlTensorBytes, ggmlTypeName, ggmlTypeTraits, isGgmlType } from "./ggml-type.js";
export type { GgmlTypeTraits } from "./ggml-type.js";
export {
  bfloat16BitsToFloat32,
  float16BitsToFloat32,
  float32ToBfloat16Bits,
  float32ToFloat16Bits,
  roundToBfloat16,
  roundToFloat16,
} from "./half-float.js";
export { readLoadableLoraHeader, readLoadableModelHeader } from "./loadable.js";
export { estimateModelMemory } from "./memory-estimate.js";
export type { MemoryEstimate, MemoryEstimateOptions } from "./memory-estimate.js";
export {
  describeValueType,
  ggufArchitecture,
  ggufValue,
  metadataArray,
  metadataLayerNumber,
  metadataNumber,
  metadataString,
} from "./metadata-values.js";
export { describeProblems, throwIfProblems } from "./problems.js";
export type { GgufProblem } from "./problems.js";
export { readGgufHeader } from "./reader.js";
export { checkTensorLayout } from "./tensor-layout.js";
export { GgufValueType, ggufValueTypeName, isGgufValueType } from "./types.js";
export type {
  GgufArrayValue,
  GgufHeader,
  GgufMetadata,
  GgufMetadataValue,
  GgufScalar,
  GgufScalarType,
  GgufScalarValue,
  GgufTensorInfo,
} from "./types.js";
export { LORA_ALPHA_KEY, validateLoraAdapter } from "./validate-lora.js";
export { FULLY_CHECKED_ARCHITECTURES, modelHyperparameters, validateModelHeader } from "./validate-model.js";
export type { ModelHyperparameters } from "./validate-model.js";
export { writeGgufFile } from "./writer.js";
export type { GgufFileSpec, GgufFloatTensor, GgufRawTensor, GgufTensorToWrite } from "./writer.js";
