// Public surface of @local-mcp/core/inference. node-llama-cpp is an optional peer dependency
// loaded only when an engine loads a model; apps that run no model never import this subpath.
export { LlamaEngine } from "./llama-engine.js";
export type { LlamaEngineConfig } from "./engine-config.js";
export { LlamaTokenizer, openLlamaTokenizer } from "./llama-tokenizer.js";
export type { TokenSample } from "./llama-tokenizer.js";
export { RemoteBackend } from "./remote-backend.js";
export { LlamaEmbedder } from "./llama-embedder.js";
export { alpacaPrompt } from "./prompt-formats.js";
export { checkJson } from "./json-check.js";
export { longestTokenText, promptTextUnits } from "./prompt-bound.js";
export type {
  ChatMessage,
  GenerateRequest,
  GenerationResult,
  InferenceBackend,
  JsonRequest,
  JsonResult,
  JsonSchema,
  PromptInput,
} from "./types.js";
export * from "./gguf/index.js";
export * from "./peft/index.js";
