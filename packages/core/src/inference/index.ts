// Public surface of @local-mcp/core/inference. node-llama-cpp is an optional peer dependency
// loaded only when an engine loads a model; apps that run no model never import this subpath.
export { LlamaEngine } from "./llama-engine.js";
export type { LlamaEngineOptions } from "./llama-engine.js";
export { LlamaEngineConfigSchema } from "./engine-config.js";
export type { LlamaEngineConfig, ResolvedLlamaEngineConfig } from "./engine-config.js";
export { RemoteBackend, RemoteBackendConfigSchema } from "./remote-backend.js";
export type { RemoteBackendConfig } from "./remote-backend.js";
export { LlamaEmbedder } from "./llama-embedder.js";
export { confidenceFromLogprobs, confidenceFromProbabilities } from "./confidence.js";
export { ALPACA_STOPS, alpacaPrompt } from "./prompt-formats.js";
export { checkJson } from "./json-check.js";
export type { JsonCheck } from "./json-check.js";
export { SequencePool } from "./sequence-pool.js";
export { preflightModel } from "./preflight.js";
export type { ModelPreflight } from "./preflight.js";
export { longestTokenText, promptTextUnits } from "./prompt-bound.js";
export type {
  CallOptions,
  ChatMessage,
  GenerateRequest,
  GenerationResult,
  InferenceBackend,
  JsonRequest,
  JsonResult,
  JsonSchema,
  PromptInput,
  SamplingOptions,
  StopReason,
} from "./types.js";
export * from "./gguf/index.js";
export * from "./peft/index.js";
