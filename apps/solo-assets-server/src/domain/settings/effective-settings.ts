/**
 * Which embedder and critic a process uses: a `SOLO_*` variable wins, then the dashboard's
 * settings file, then the default. `auto` means Gemini when an API key is known (GOOGLE_API_KEY /
 * GEMINI_API_KEY, else the key saved from the dashboard), else the offline choice: the built-in
 * local embedder, and the local critic when a GGUF model is configured, otherwise no critic.
 * A backend that was asked for but cannot run falls back, with a note saying why.
 */
import { GEMINI_DEFAULT_DIMENSION, GEMINI_DEFAULT_MODEL, LOCAL_EMBEDDER_DEFAULT_DIMENSION } from "@local-mcp/core/embeddings";
import type { CriticChoice, EmbedderChoice, SoloAssetsConfig } from "../../config.js";
import { DEFAULT_CRITIC_MODEL } from "../gate/critic/gemini-critic.js";
import { BuiltinEmbedder } from "../search/builtin-embedder.js";
import type { StoredSettings } from "./settings-store.js";

export type SettingSource = "environment" | "settings file" | "default";

export interface EffectiveSettings {
  embedding: {
    choice: EmbedderChoice;
    source: SettingSource;
    backend: "local" | "gemini" | "openai" | "gguf";
    /** The model id recorded with each vector. */
    model: string;
    /** 0 when the model's dimension is learnt from its first embedding (openai, gguf). */
    dimension: number;
    /** The OpenAI-compatible server's base URL (openai). */
    url?: string;
    /** The GGUF file (gguf). */
    modelPath?: string;
    note?: string;
  };
  critic: {
    choice: CriticChoice;
    source: SettingSource;
    backend: "off" | "gemini" | "local";
    /** Gemini model name, or the GGUF file for the local critic. */
    model?: string;
    modelPath?: string;
    threshold: number;
    note?: string;
  };
  apiKey: {
    /** Where the key came from; the value itself is only for the Gemini clients. */
    source: "environment" | "settings file" | "none";
    value?: string;
  };
}

function pick<T>(env: T | undefined, file: T | undefined, fallback: T): { value: T; source: SettingSource } {
  if (env !== undefined) return { value: env, source: "environment" };
  if (file !== undefined) return { value: file, source: "settings file" };
  return { value: fallback, source: "default" };
}

export function resolveSettings(config: SoloAssetsConfig, stored: StoredSettings, fileKey: string | undefined): EffectiveSettings {
  const key = config.geminiApiKey ?? fileKey;
  const apiKey: EffectiveSettings["apiKey"] = config.geminiApiKey
    ? { source: "environment", value: config.geminiApiKey }
    : fileKey
      ? { source: "settings file", value: fileKey }
      : { source: "none" };

  const embedderChoice = pick(config.overrides.embedder, stored.embedder, "auto" as EmbedderChoice);
  let embeddingBackend: EffectiveSettings["embedding"]["backend"] =
    embedderChoice.value === "gemini" || (embedderChoice.value === "auto" && key)
      ? "gemini"
      : embedderChoice.value === "openai" || embedderChoice.value === "gguf"
        ? embedderChoice.value
        : "local";
  let embeddingNote: string | undefined;
  if (embeddingBackend === "gemini" && !key) {
    embeddingBackend = "local";
    embeddingNote = "Gemini embeddings were chosen but no API key is set; using the built-in local embedder.";
  }
  const embeddingModel = config.overrides.embeddingModel ?? stored.embeddingModel;
  const url = config.overrides.embeddingUrl ?? stored.embeddingUrl;
  const ggufPath = config.overrides.embeddingModelPath ?? stored.embeddingModelPath;
  if (embeddingBackend === "openai" && !(url && embeddingModel)) {
    embeddingBackend = "local";
    embeddingNote =
      "An OpenAI-compatible embedding server was chosen but SOLO_EMBEDDING_URL or SOLO_EMBEDDING_MODEL is not set; using the built-in local embedder.";
  }
  if (embeddingBackend === "gguf" && !ggufPath) {
    embeddingBackend = "local";
    embeddingNote = "A GGUF embedding model was chosen but SOLO_EMBEDDING_MODEL_PATH is not set; using the built-in local embedder.";
  }
  const dimension = config.overrides.embeddingDimension ?? stored.embeddingDimension;
  const embedding: EffectiveSettings["embedding"] =
    embeddingBackend === "openai" && url && embeddingModel
      ? {
          choice: embedderChoice.value,
          source: embedderChoice.source,
          backend: "openai",
          model: `openai:${embeddingModel}`,
          dimension: dimension ?? 0,
          url,
        }
      : embeddingBackend === "gguf" && ggufPath
        ? {
            choice: embedderChoice.value,
            source: embedderChoice.source,
            backend: "gguf",
            model: `gguf:${ggufPath.split(/[\\/]/).pop() ?? ggufPath}`,
            dimension: 0,
            modelPath: ggufPath,
          }
        : embeddingBackend === "gemini"
          ? {
              choice: embedderChoice.value,
              source: embedderChoice.source,
              backend: "gemini",
              model: (config.overrides.embeddingModel ?? stored.embeddingModel ?? GEMINI_DEFAULT_MODEL).replace(/^models\//, ""),
              dimension: dimension ?? GEMINI_DEFAULT_DIMENSION,
            }
          : (() => {
              const local = new BuiltinEmbedder({ dimension: dimension ?? LOCAL_EMBEDDER_DEFAULT_DIMENSION });
              return {
                choice: embedderChoice.value,
                source: embedderChoice.source,
                backend: "local" as const,
                model: local.model,
                dimension: local.dimension,
              };
            })();
  if (embeddingNote) embedding.note = embeddingNote;

  const criticChoice = pick(config.overrides.critic, stored.critic, "auto" as CriticChoice);
  const modelPath = config.overrides.criticModelPath ?? stored.criticModelPath;
  const geminiModel = config.overrides.criticModel ?? stored.criticModel ?? DEFAULT_CRITIC_MODEL;
  const base = { choice: criticChoice.value, source: criticChoice.source, threshold: config.criticThreshold };
  let critic: EffectiveSettings["critic"];
  switch (criticChoice.value) {
    case "off":
      critic = { ...base, backend: "off" };
      break;
    case "gemini":
      critic = key
        ? { ...base, backend: "gemini", model: geminiModel }
        : { ...base, backend: "off", note: "The Gemini critic was chosen but no API key is set; the critic is off." };
      break;
    case "local":
      critic = modelPath
        ? { ...base, backend: "local", model: modelPath.split(/[\\/]/).pop() ?? modelPath, modelPath }
        : {
            ...base,
            backend: "off",
            note: "The local critic was chosen but no GGUF model is set (SOLO_CRITIC_MODEL_PATH); the critic is off.",
          };
      break;
    case "auto":
      critic = key
        ? { ...base, backend: "gemini", model: geminiModel }
        : modelPath
          ? { ...base, backend: "local", model: modelPath.split(/[\\/]/).pop() ?? modelPath, modelPath }
          : { ...base, backend: "off" };
      break;
  }
  return { embedding, critic, apiKey };
}
