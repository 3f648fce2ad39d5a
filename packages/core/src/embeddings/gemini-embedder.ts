import type { EmbedContentResponse, GoogleGenAI } from "@google/genai";
import { ToolError } from "../errors.js";
import { silentLogger } from "../logger.js";
import type { Logger } from "../logger.js";
import { throwIfAborted } from "./abort.js";
import { runBatches, splitIntoBatches } from "./batches.js";
import { checkEmbedInput } from "./embed-input.js";
import type { EmbedOptions, EmbedTask, Embedder } from "./embedder.js";
import { GeminiAttemptTimeout, classifyGeminiError, exhaustedError } from "./gemini-failures.js";
import type { GeminiCallContext, GeminiFailure } from "./gemini-failures.js";
import { DEFAULT_RETRY_POLICY, withRetry } from "./retry.js";
import type { RetryPolicy } from "./retry.js";
import { l2Normalise } from "./vectors.js";

export const GEMINI_DEFAULT_MODEL = "gemini-embedding-001";
export const GEMINI_DEFAULT_DIMENSION = 768;
/** The API takes at most this many texts in one batchEmbedContents request. */
export const GEMINI_MAX_BATCH_SIZE = 100;
export const GEMINI_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";
export const GEMINI_API_VERSIONS = ["v1beta", "v1"] as const;
export type GeminiApiVersion = (typeof GEMINI_API_VERSIONS)[number];

const TASK_TYPE: Record<EmbedTask, string> = {
  document: "RETRIEVAL_DOCUMENT",
  query: "RETRIEVAL_QUERY",
};

export interface GeminiEmbedderOptions {
  /** Required; see `geminiApiKeyFromEnv`. Never logged or put in messages. */
  apiKey: string;
  /** Default `gemini-embedding-001`. */
  model?: string;
  /** Vector length asked of the API (`outputDimensionality`); default 768. */
  outputDimensionality?: number;
  /** REST version, pinned in the client options: "v1beta" (default) or "v1". */
  apiVersion?: GeminiApiVersion;
  /** Another endpoint (a proxy, a test fake), through `httpOptions.baseUrl`. */
  baseUrl?: string;
  /** Texts per request, 1-100; default 100. */
  batchSize?: number;
  /** Requests in flight at once; default 2. */
  concurrency?: number;
  /** Retries on 408, 429, 5xx, network errors and per-request timeouts. */
  retry?: Partial<RetryPolicy>;
  /** Limit for one request (one attempt); default 60 s. */
  requestTimeoutMs?: number;
  /** Retries are logged at warn level; default silent. */
  logger?: Logger;
}

function invalid(message: string): ToolError {
  return new ToolError("INVALID_INPUT", message, { recoverable: false });
}

function integerIn(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(`GeminiEmbedder ${name} must be an integer in [${min}, ${max}]; got ${value}.`);
  }
  return value;
}

/**
 * Embeddings from the Gemini API (`gemini-embedding-001` by default) through `@google/genai`,
 * an optional peer dependency loaded on first use. Documents and queries get the
 * RETRIEVAL_DOCUMENT / RETRIEVAL_QUERY task types; texts go in batches of up to 100 with
 * bounded concurrency; 408/429/5xx/network failures are retried with exponential backoff and
 * jitter (honouring the signal and Gemini's RetryInfo), anything else is an `UPSTREAM_ERROR`.
 * Vectors are L2-normalised here: Gemini normalises only its full 3072-dimension output.
 * Empty or blank texts are refused with `INVALID_INPUT` (the API cannot embed them).
 */
export class GeminiEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  readonly apiVersion: GeminiApiVersion;
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #batchSize: number;
  readonly #concurrency: number;
  readonly #retry: RetryPolicy;
  readonly #requestTimeoutMs: number;
  readonly #logger: Logger;
  #client: Promise<GoogleGenAI> | undefined;

  constructor(options: GeminiEmbedderOptions) {
    const apiKey = typeof options?.apiKey === "string" ? options.apiKey.trim() : "";
    if (apiKey.length === 0) {
      throw new ToolError("NOT_READY", "The Gemini embedder has no API key.", {
        suggestion: "Set GOOGLE_API_KEY or GEMINI_API_KEY (read with geminiApiKeyFromEnv) or pass apiKey.",
      });
    }
    this.#apiKey = apiKey;
    const model = (options.model ?? GEMINI_DEFAULT_MODEL).replace(/^models\//, "");
    if (!/^[A-Za-z0-9._-]+$/.test(model)) throw invalid(`GeminiEmbedder model name is not valid: ${model}.`);
    this.model = model;
    this.dimension = integerIn("outputDimensionality", options.outputDimensionality ?? GEMINI_DEFAULT_DIMENSION, 1, 3072);
    const apiVersion = options.apiVersion ?? "v1beta";
    if (!GEMINI_API_VERSIONS.includes(apiVersion)) {
      throw invalid(`GeminiEmbedder apiVersion must be one of ${GEMINI_API_VERSIONS.join(", ")}; got ${String(apiVersion)}.`);
    }
    this.apiVersion = apiVersion;
    const baseUrl = options.baseUrl ?? GEMINI_DEFAULT_BASE_URL;
    if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
      throw invalid(`GeminiEmbedder baseUrl must be an http(s) URL; got ${baseUrl}.`);
    }
    this.baseUrl = baseUrl;
    this.#batchSize = integerIn("batchSize", options.batchSize ?? GEMINI_MAX_BATCH_SIZE, 1, GEMINI_MAX_BATCH_SIZE);
    this.#concurrency = integerIn("concurrency", options.concurrency ?? 2, 1, 16);
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    integerIn("retry.attempts", this.#retry.attempts, 1, 10);
    integerIn("retry.initialDelayMs", this.#retry.initialDelayMs, 0, 600_000);
    integerIn("retry.maxDelayMs", this.#retry.maxDelayMs, 0, 600_000);
    this.#requestTimeoutMs = integerIn("requestTimeoutMs", options.requestTimeoutMs ?? 60_000, 1, 600_000);
    this.#logger = options.logger ?? silentLogger;
  }

  async embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    checkEmbedInput(texts, options);
    if (texts.length === 0) return [];
    const blank = texts.findIndex((text) => text.trim().length === 0);
    if (blank >= 0) {
      throw new ToolError("INVALID_INPUT", `texts[${blank}] is empty; Gemini cannot embed an empty text.`, {
        details: { index: blank },
      });
    }
    const what = `Embedding ${texts.length} texts with Gemini ${this.model}`;
    throwIfAborted(options.signal, what);
    const client = await this.#getClient();
    const taskType = TASK_TYPE[options.task];
    const batches = splitIntoBatches(texts, this.#batchSize);
    const results = await runBatches(batches, this.#concurrency, options.signal, (batch, _index, signal) =>
      this.#embedBatch(client, batch, taskType, signal, what),
    );
    return results.flat();
  }

  /** Drops the client; a later `embed` makes a new one. */
  dispose(): void {
    this.#client = undefined;
  }

  #getClient(): Promise<GoogleGenAI> {
    this.#client ??= this.#createClient().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  async #createClient(): Promise<GoogleGenAI> {
    let sdk;
    try {
      sdk = await import("@google/genai");
    } catch {
      throw new ToolError("NOT_READY", "The Gemini embedder needs the optional package @google/genai.", {
        suggestion: "Install @google/genai (^2.32.0) next to @local-mcp/core, or use the built-in embedder.",
      });
    }
    // Everything explicit, so the SDK's own environment lookups (API key, base URL, Vertex) never apply.
    return new sdk.GoogleGenAI({
      apiKey: this.#apiKey,
      vertexai: false,
      apiVersion: this.apiVersion,
      httpOptions: { baseUrl: this.baseUrl },
    });
  }

  #context(): GeminiCallContext {
    return { model: this.model, apiVersion: this.apiVersion, apiKey: this.#apiKey };
  }

  #embedBatch(client: GoogleGenAI, batch: string[], taskType: string, signal: AbortSignal, what: string): Promise<Float32Array[]> {
    const context = this.#context();
    return withRetry(
      async () => {
        const timeout = new AbortController();
        const timer = setTimeout(() => timeout.abort(), this.#requestTimeoutMs);
        const attemptSignal = AbortSignal.any([signal, timeout.signal]);
        try {
          const response = await client.models.embedContent({
            model: this.model,
            contents: batch,
            config: { taskType, outputDimensionality: this.dimension, abortSignal: attemptSignal },
          });
          return this.#vectorsFrom(response, batch.length);
        } catch (error) {
          if (timeout.signal.aborted && !signal.aborted) throw new GeminiAttemptTimeout(this.#requestTimeoutMs);
          throw error;
        } finally {
          clearTimeout(timer);
        }
      },
      {
        policy: this.#retry,
        signal,
        what,
        classify: (error) => classifyGeminiError(error, context),
        exhausted: (error, attempts) => exhaustedError(error, attempts, context),
        onRetry: ({ attempt, delayMs, error }) => {
          const failure = error as GeminiFailure | GeminiAttemptTimeout;
          this.#logger.warn("Gemini embedding request failed; retrying", {
            model: this.model,
            attempt,
            delayMs,
            httpStatus: failure instanceof GeminiAttemptTimeout ? undefined : failure.httpStatus,
            reason: failure.message,
          });
        },
      },
    );
  }

  #vectorsFrom(response: EmbedContentResponse, expected: number): Float32Array[] {
    const embeddings = response.embeddings ?? [];
    if (embeddings.length !== expected) {
      throw new ToolError("UPSTREAM_ERROR", `Gemini returned ${embeddings.length} embeddings for ${expected} texts.`);
    }
    return embeddings.map((embedding, index) => {
      const values = embedding.values;
      if (!Array.isArray(values) || values.length !== this.dimension || !values.every(Number.isFinite)) {
        throw new ToolError(
          "UPSTREAM_ERROR",
          `Gemini returned an invalid embedding for text ${index}: expected ${this.dimension} finite numbers, ` +
            `got ${Array.isArray(values) ? `${values.length} values` : "none"}.`,
        );
      }
      const vector = l2Normalise(values);
      if (vector.every((value) => value === 0)) {
        throw new ToolError("UPSTREAM_ERROR", `Gemini returned a zero vector for text ${index}.`);
      }
      return vector;
    });
  }
}
