import { z } from "zod";
import { ToolError } from "../errors.js";
import { abortableDelay, withDeadline } from "../guards/deadline.js";
import { Readiness } from "../guards/readiness.js";
import { createLogger, type Logger } from "../logger.js";
import { confidenceFromLogprobs } from "./confidence.js";
import { generateValidatedJson } from "./json-generation.js";
import { ALPACA_STOPS, alpacaPrompt } from "./prompt-formats.js";
import type { CallOptions, GenerateRequest, GenerationResult, InferenceBackend, JsonRequest, JsonResult, StopReason } from "./types.js";

export const RemoteBackendConfigSchema = z.object({
  /** Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8080/v1 (llama.cpp server), http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl: z.string().url(),
  /** Model name the server knows. */
  model: z.string().min(1),
  /** Sent as a Bearer token when set; never logged. */
  apiKey: z.string().optional(),
  /** Model used for /embeddings (defaults to `model`). */
  embeddingModel: z.string().optional(),
  deadlineMs: z.number().int().positive().default(30_000),
  /** Attempts for 429, 5xx and network errors, with exponential backoff from `backoffMs`. */
  maxAttempts: z.number().int().min(1).max(10).default(3),
  backoffMs: z.number().int().min(0).default(250),
});
export type RemoteBackendConfig = z.input<typeof RemoteBackendConfigSchema>;

const UsageSchema = z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).optional();
const ChatResponseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
        logprobs: z
          .object({
            content: z
              .array(z.object({ logprob: z.number() }))
              .nullable()
              .optional(),
          })
          .nullable()
          .optional(),
      }),
    )
    .min(1),
  usage: UsageSchema,
});
const CompletionResponseSchema = z.object({
  choices: z
    .array(
      z.object({
        text: z.string(),
        finish_reason: z.string().nullable().optional(),
        logprobs: z
          .object({ token_logprobs: z.array(z.number().nullable()).optional() })
          .nullable()
          .optional(),
      }),
    )
    .min(1),
  usage: UsageSchema,
});
const EmbeddingResponseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().optional() })),
});

function stopReasonOf(finish: string | null | undefined): StopReason {
  return finish === "length" ? "max_tokens" : finish === "stop" ? "eos" : "eos";
}

/**
 * The same interface as LlamaEngine over an OpenAI-compatible HTTP server (llama.cpp server,
 * Ollama, vLLM), for models that outgrow this machine. Chat uses /chat/completions, completion and
 * Alpaca /completions, embeddings /embeddings; JSON results use `response_format: json_schema`
 * and pass the same schema check. Fill-in-the-middle is not part of that API: `infill` completes
 * the prefix and says so (`mode: "prefix-completion"`). Confidence comes from the returned
 * logprobs; a server that returns none gets confidence 0, so thresholds fail closed, and
 * `confidenceKnown: false`, so a caller can say why instead.
 */
export class RemoteBackend implements InferenceBackend {
  readonly kind = "remote" as const;
  readonly readiness: Readiness;
  readonly config: z.output<typeof RemoteBackendConfigSchema>;
  private readonly logger: Logger;

  constructor(config: RemoteBackendConfig, options: { logger?: Logger } = {}) {
    this.config = RemoteBackendConfigSchema.parse(config);
    this.logger = options.logger ?? createLogger({ name: "remote-model" });
    this.readiness = new Readiness("remote model", { state: "loading", reason: `${this.config.baseUrl} not checked yet` });
  }

  get modelName(): string {
    return this.config.model;
  }

  /** Checks the server answers (GET /models); readiness follows. `signal` bounds the check (e.g. AbortSignal.timeout). */
  async load(options: { signal?: AbortSignal } = {}): Promise<void> {
    try {
      await this.request("GET", "/models", undefined, options.signal ?? new AbortController().signal);
      this.readiness.markReady();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.readiness.markFailed(reason);
      throw new ToolError("NOT_READY", `The remote model server is not reachable: ${reason}`, {
        suggestion: `Start the server at ${this.config.baseUrl} or fix the configured URL.`,
      });
    }
  }

  generate(request: GenerateRequest): Promise<GenerationResult> {
    return withDeadline((signal) => this.run(request, signal), {
      timeoutMs: request.deadlineMs ?? this.config.deadlineMs,
      signal: request.signal,
      what: "Remote generation",
    });
  }

  json<T = unknown>(request: JsonRequest): Promise<JsonResult<T>> {
    return generateValidatedJson<T>((r) => this.generate(r), request, { backoffMs: this.config.backoffMs });
  }

  embed(texts: readonly string[], options: CallOptions = {}): Promise<Float32Array[]> {
    return withDeadline(
      async (signal) => {
        const body = await this.request(
          "POST",
          "/embeddings",
          { model: this.config.embeddingModel ?? this.config.model, input: texts },
          signal,
        );
        const parsed = EmbeddingResponseSchema.safeParse(body);
        if (!parsed.success || parsed.data.data.length !== texts.length) throw this.badResponse("/embeddings");
        const ordered = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        return ordered.map((d) => normalise(d.embedding));
      },
      { timeoutMs: options.deadlineMs ?? this.config.deadlineMs, signal: options.signal, what: "Remote embedding" },
    );
  }

  async dispose(): Promise<void> {
    this.readiness.markFailed("the backend was disposed");
  }

  private async run(request: GenerateRequest, signal: AbortSignal): Promise<GenerationResult> {
    const started = performance.now();
    const common = {
      model: this.config.model,
      max_tokens: request.maxTokens ?? 256,
      temperature: request.temperature ?? 0,
      ...(request.topP === undefined ? {} : { top_p: request.topP }),
      ...(request.topK === undefined ? {} : { top_k: request.topK }),
      ...(request.seed === undefined ? {} : { seed: request.seed }),
    };
    const prompt = request.prompt;
    if (prompt.kind === "chat") {
      const body = await this.request(
        "POST",
        "/chat/completions",
        {
          ...common,
          messages: prompt.messages,
          logprobs: true,
          ...(request.stop?.length ? { stop: request.stop } : {}),
          ...(request.jsonSchema
            ? { response_format: { type: "json_schema", json_schema: { name: "result", schema: request.jsonSchema, strict: true } } }
            : {}),
        },
        signal,
      );
      const parsed = ChatResponseSchema.safeParse(body);
      if (!parsed.success) throw this.badResponse("/chat/completions");
      const choice = parsed.data.choices[0]!;
      const logprobs = choice.logprobs?.content?.map((c) => c.logprob) ?? [];
      return {
        text: choice.message.content ?? "",
        tokensIn: parsed.data.usage?.prompt_tokens ?? 0,
        tokensOut: parsed.data.usage?.completion_tokens ?? logprobs.length,
        wallMs: performance.now() - started,
        confidence: confidenceFromLogprobs(logprobs),
        ...(logprobs.length === 0 ? { confidenceKnown: false as const } : {}),
        stopReason: stopReasonOf(choice.finish_reason),
        mode: "chat",
      };
    }
    const text =
      prompt.kind === "alpaca" ? alpacaPrompt(prompt.instruction, prompt.input) : prompt.kind === "infill" ? prompt.prefix : prompt.text;
    const stops = [...(prompt.kind === "alpaca" ? ALPACA_STOPS : []), ...(request.stop ?? [])];
    const body = await this.request(
      "POST",
      "/completions",
      {
        ...common,
        prompt: text,
        logprobs: 1,
        ...(stops.length > 0 ? { stop: stops.slice(0, 4) } : {}),
        ...(request.jsonSchema
          ? { response_format: { type: "json_schema", json_schema: { name: "result", schema: request.jsonSchema } } }
          : {}),
      },
      signal,
    );
    const parsed = CompletionResponseSchema.safeParse(body);
    if (!parsed.success) throw this.badResponse("/completions");
    const choice = parsed.data.choices[0]!;
    const logprobs = (choice.logprobs?.token_logprobs ?? []).filter((x): x is number => typeof x === "number");
    return {
      text: choice.text,
      tokensIn: parsed.data.usage?.prompt_tokens ?? 0,
      tokensOut: parsed.data.usage?.completion_tokens ?? logprobs.length,
      wallMs: performance.now() - started,
      confidence: confidenceFromLogprobs(logprobs),
      ...(logprobs.length === 0 ? { confidenceKnown: false as const } : {}),
      stopReason: stopReasonOf(choice.finish_reason),
      mode: prompt.kind === "infill" ? "prefix-completion" : prompt.kind,
    };
  }

  /** `text` without the API key: it never goes into a message or a log line. */
  private redact(text: string): string {
    const key = this.config.apiKey;
    return key ? text.split(key).join("[redacted]") : text;
  }

  private badResponse(path: string): ToolError {
    return new ToolError("UPSTREAM_ERROR", `The remote model server sent an unexpected answer to ${path}.`, {
      suggestion: "Check that the server speaks the OpenAI API and the model name is right.",
    });
  }

  /** One JSON request with retries on 429, 5xx and network errors; other failures are UPSTREAM_ERROR. */
  private async request(method: "GET" | "POST", path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
    const url = `${this.config.baseUrl.replace(/\/+$/, "")}${path}`;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let lastProblem = "";
    for (let attempt = 1; attempt <= this.config.maxAttempts; attempt++) {
      if (attempt > 1) await abortableDelay(this.config.backoffMs * 2 ** (attempt - 2), signal);
      let response: Response;
      try {
        response = await fetch(url, { method, headers, signal, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        // undici's "fetch failed" hides the reason (ECONNREFUSED, ENOTFOUND, "bad port"...) in `cause`.
        const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
        const why = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : undefined;
        lastProblem = this.redact(`network error: ${(error as Error).message}${why === undefined ? "" : ` (${why})`}`);
        this.logger.warn(`remote ${path} failed, attempt ${attempt}`, { problem: lastProblem });
        continue;
      }
      if (response.ok) return (await response.json()) as unknown;
      // Servers echo a wrong key in their error bodies ("Incorrect API key provided: sk-…").
      const detail = this.redact(await response.text().catch(() => "")).slice(0, 300);
      lastProblem = `HTTP ${response.status}${detail ? `: ${detail}` : ""}`;
      if (response.status !== 429 && response.status < 500) break;
      this.logger.warn(`remote ${path} answered ${response.status}, attempt ${attempt}`);
    }
    throw new ToolError("UPSTREAM_ERROR", `The remote model server failed on ${path}: ${lastProblem}`, {
      suggestion: "Check the remote server, or handle this task directly.",
    });
  }
}

function normalise(vector: readonly number[]): Float32Array {
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
  return Float32Array.from(vector, (x) => (norm > 0 ? x / norm : 0));
}
