// Public surface of @local-mcp/core/embeddings. `@google/genai` is an optional peer dependency,
// loaded only when a GeminiEmbedder first embeds; importing this subpath never loads it.
export { EMBED_TASKS } from "./embedder.js";
export type { EmbedOptions, EmbedTask, Embedder } from "./embedder.js";
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
export type { EmbeddingSpace, ScoredIndex, StoredVector } from "./vectors.js";
export {
  LOCAL_BLOCK_WEIGHTS,
  LOCAL_EMBEDDER_DEFAULT_DIMENSION,
  LOCAL_EMBEDDER_VERSION,
  LocalEmbedder,
} from "./local-embedder.js";
export type { LocalEmbedderOptions } from "./local-embedder.js";
export { LOCAL_EMBEDDER_MAX_TEXT_CHARS } from "./text-features.js";
export {
  GEMINI_API_VERSIONS,
  GEMINI_DEFAULT_BASE_URL,
  GEMINI_DEFAULT_DIMENSION,
  GEMINI_DEFAULT_MODEL,
  GEMINI_MAX_BATCH_SIZE,
  GeminiEmbedder,
} from "./gemini-embedder.js";
export type { GeminiApiVersion, GeminiEmbedderOptions } from "./gemini-embedder.js";
export { geminiApiKeyFromEnv } from "./gemini-api-key.js";
export { DEFAULT_RETRY_POLICY, backoffDelayMs } from "./retry.js";
export type { RetryPolicy } from "./retry.js";
export { createEmbedder } from "./create-embedder.js";
export type { EmbedderConfig } from "./create-embedder.js";
