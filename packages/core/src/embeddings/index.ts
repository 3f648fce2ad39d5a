// Public surface of @local-mcp/core/embeddings. `@google/genai` is an optional peer dependency,
// loaded only when a GeminiEmbedder first embeds; importing this subpath never loads it.
export type { Embedder } from "./embedder.js";
export {
  assertSameEmbeddingSpace,
  cosine,
  dot,
  isUnitVector,
  l2Norm,
  l2Normalise,
  sameEmbeddingSpace,
  toStoredVector,
  topK,
} from "./vectors.js";
export { LOCAL_EMBEDDER_DEFAULT_DIMENSION, LOCAL_EMBEDDER_VERSION, LocalEmbedder } from "./local-embedder.js";
export { LOCAL_EMBEDDER_MAX_TEXT_CHARS } from "./text-features.js";
export { GEMINI_DEFAULT_DIMENSION, GEMINI_DEFAULT_MODEL, GeminiEmbedder } from "./gemini-embedder.js";
export type { GeminiEmbedderOptions } from "./gemini-embedder.js";
export { geminiApiKeyFromEnv } from "./gemini-api-key.js";
export { backoffDelayMs } from "./retry.js";
export { createEmbedder } from "./create-embedder.js";
