// PEFT → GGUF LoRA conversion for @local-mcp/core/inference: safetensors I/O, PEFT names and
// config, the llama RoPE permutation, and the converter. No node-llama-cpp import here.
export { PeftConversionError } from "./conversion-error.js";
export type { PeftRefusalReason } from "./conversion-error.js";
export { PEFT_ARCHITECTURES, convertPeftToGguf } from "./convert-peft.js";
export type { ConvertPeftOptions, ConvertPeftResult, PeftArchitecture } from "./convert-peft.js";
export { PeftLoraConfigSchema, moduleAlpha, readPeftConfig } from "./peft-config.js";
export type { PeftLoraConfig } from "./peft-config.js";
export { permuteRopeRows } from "./rope-permutation.js";
export { SafetensorsFile, SafetensorsFormatError } from "./safetensors.js";
export type { SafetensorsDtype, SafetensorsTensorInfo } from "./safetensors.js";
export { writeSafetensorsFile } from "./safetensors-writer.js";
export type { SafetensorsTensorToWrite } from "./safetensors-writer.js";
export { ggufTensorForModule, parsePeftTensorName } from "./tensor-names.js";
export type { PeftTensorName } from "./tensor-names.js";
