import type { Embedder } from "./embedder.js";
import { GeminiEmbedder } from "./gemini-embedder.js";
import type { GeminiEmbedderOptions } from "./gemini-embedder.js";
import { LocalEmbedder } from "./local-embedder.js";
import type { LocalEmbedderOptions } from "./local-embedder.js";

/** Which backend to use, as an app's config or a benchmark names it. */
export type EmbedderConfig = ({ backend: "local" } & LocalEmbedderOptions) | ({ backend: "gemini" } & GeminiEmbedderOptions);

/** Builds the embedder a config names; the built-in one when no config is given. */
export function createEmbedder(config: EmbedderConfig = { backend: "local" }): Embedder {
  switch (config.backend) {
    case "local":
      return new LocalEmbedder(config);
    case "gemini":
      return new GeminiEmbedder(config);
  }
}
