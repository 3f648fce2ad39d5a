import type {
  ControlledEvaluateInputItem,
  Llama,
  LlamaContext,
  LlamaContextSequence,
  LlamaEmbeddingContext,
  LlamaGrammar,
  LlamaModel,
  Token,
} from "node-llama-cpp";
import { ToolError, toToolError } from "../errors.js";
import { withDeadline } from "../guards/deadline.js";
import { MemoryGuard } from "../guards/memory.js";
import { Readiness } from "../guards/readiness.js";
import { createLogger, type Logger } from "../logger.js";
import { confidenceFromProbabilities } from "./confidence.js";
import { LlamaEngineConfigSchema, type LlamaEngineConfig, type ResolvedLlamaEngineConfig } from "./engine-config.js";
import { toGrammarSchema } from "./grammar-schema.js";
import { generateValidatedJson } from "./json-generation.js";
import { acquireLlamaRuntime, type LlamaRuntimeLease } from "./llama-runtime.js";
import { LlamaTokenizer, type TokenSample } from "./llama-tokenizer.js";
import { preflightModel } from "./preflight.js";
import { promptTextUnits } from "./prompt-bound.js";
import { SequencePool } from "./sequence-pool.js";
import type {
  CallOptions,
  GenerateRequest,
  GenerationResult,
  InferenceBackend,
  JsonRequest,
  JsonResult,
  PromptInput,
  StopReason,
} from "./types.js";

const DEFAULT_MAX_TOKENS = 256;

interface Loaded {
  llama: Llama;
  runtime: LlamaRuntimeLease;
  model: LlamaModel;
  context: LlamaContext;
  pool: SequencePool<LlamaContextSequence>;
  tokenizer: LlamaTokenizer;
  /** The most UTF-16 code units one token stands for; undefined where the vocabulary cannot tell. */
  longestTokenText: number | undefined;
}

export interface LlamaEngineOptions {
  logger?: Logger;
  /** Injected for tests; defaults to one built from `memoryBoundBytes`. */
  memoryGuard?: MemoryGuard;
  /**
   * Debug hook: after each generation, the tokens its sequence holds as node-llama-cpp records
   * them (the prompt, then each generated token that was fed back), before the next call uses it.
   */
  onSequenceTokens?: (tokens: readonly number[]) => void;
}

/**
 * A GGUF model (plus LoRA adapters) served through node-llama-cpp: loaded once, lazily or by
 * `load()` in the background, after its headers were checked in TypeScript (a bad file is
 * NOT_READY, never a process abort) and its memory estimated (L-memory-bound). Calls share the
 * context's sequences through a bounded queue; each runs under a deadline and stops generating
 * at the next token when it expires (L-response-time).
 */
export class LlamaEngine implements InferenceBackend {
  readonly kind = "llama" as const;
  readonly readiness: Readiness;
  readonly config: ResolvedLlamaEngineConfig;
  private readonly logger: Logger;
  private readonly memoryGuard: MemoryGuard;
  private readonly onSequenceTokens: ((tokens: readonly number[]) => void) | undefined;
  private loading: Promise<Loaded> | undefined;
  private loaded: Loaded | undefined;
  private embedding: Promise<LlamaEmbeddingContext> | undefined;
  private embeddingQueue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(config: LlamaEngineConfig, options: LlamaEngineOptions = {}) {
    this.config = LlamaEngineConfigSchema.parse(config);
    this.logger = options.logger ?? createLogger({ name: "llama" });
    this.memoryGuard = options.memoryGuard ?? new MemoryGuard({ boundBytes: this.config.memoryBoundBytes });
    this.onSequenceTokens = options.onSequenceTokens;
    this.readiness = new Readiness("model", { state: "loading", reason: `${this.modelName} has not started loading` });
  }

  get modelName(): string {
    const base = this.config.modelPath.split(/[\\/]/).pop() ?? this.config.modelPath;
    const adapters = this.config.adapters.map((a) => `${a.path.split(/[\\/]/).pop()}@${a.scale}`);
    return adapters.length > 0 ? `${base}+${adapters.join("+")}` : base;
  }

  /** Loads the model once; every caller shares the same load. Progress is a fraction in [0,1]. */
  load(options: { onProgress?: (fraction: number) => void } = {}): Promise<void> {
    if (this.disposed) return Promise.reject(new ToolError("NOT_READY", "The engine has been disposed."));
    this.loading ??= this.doLoad(options.onProgress).then(
      (loaded) => {
        this.loaded = loaded;
        this.readiness.markReady();
        return loaded;
      },
      (error: unknown) => {
        const failure = toToolError(error);
        this.readiness.markFailed(failure.message);
        this.logger.error("model load failed", { error: failure.message });
        throw failure;
      },
    );
    return this.loading.then(() => undefined);
  }

  private async doLoad(onProgress?: (fraction: number) => void): Promise<Loaded> {
    const c = this.config;
    this.readiness.markLoading(`checking ${this.modelName}`, 0);
    const { longestTokenText } = await preflightModel(c, this.memoryGuard);
    const runtime = await acquireLlamaRuntime(c.gpu, c.llamaLogLevel, this.logger);
    const llama = runtime.llama;
    this.readiness.markLoading(`loading ${this.modelName}`, 0);
    let model: LlamaModel;
    try {
      model = await llama.loadModel({
        modelPath: c.modelPath,
        onLoadProgress: (fraction) => {
          this.readiness.markLoading(`loading ${this.modelName}`, fraction);
          onProgress?.(fraction);
        },
      });
    } catch (error) {
      await runtime.release();
      throw new ToolError("NOT_READY", `llama.cpp could not load ${this.modelName}: ${(error as Error).message}`, { recoverable: false });
    }
    try {
      const context = await model.createContext({
        contextSize: c.contextSize,
        sequences: c.sequences,
        ...(c.threads === undefined ? {} : { threads: c.threads }),
        flashAttention: c.flashAttention,
        ...(c.kvCacheType === "f32" ? { experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32" } : {}),
        ...(c.adapters.length > 0 ? { lora: { adapters: c.adapters.map((a) => ({ filePath: a.path, scale: a.scale })) } } : {}),
      });
      const sequences = Array.from({ length: c.sequences }, () => context.getSequence());
      const { resolveChatWrapper } = await import("node-llama-cpp");
      return {
        llama,
        runtime,
        model,
        context,
        pool: new SequencePool(sequences, c.maxQueue),
        tokenizer: new LlamaTokenizer(model, resolveChatWrapper(model)),
        longestTokenText,
      };
    } catch (error) {
      await model.dispose();
      await runtime.release();
      throw new ToolError("NOT_READY", `Could not create a context for ${this.modelName}: ${(error as Error).message}`, {
        recoverable: false,
        suggestion: "Check the adapters match the model, or lower the context size.",
      });
    }
  }

  /** Runs one generation under the call's deadline, waiting for a free sequence if needed. */
  generate(request: GenerateRequest): Promise<GenerationResult> {
    return withDeadline(
      async (signal) => {
        const loaded = await this.ensureLoaded();
        const sequence = await loaded.pool.acquire(signal);
        try {
          return await this.run(loaded, sequence, request, signal);
        } finally {
          loaded.pool.release(sequence);
        }
      },
      { timeoutMs: request.deadlineMs ?? this.config.deadlineMs, signal: request.signal, what: "Generation" },
    );
  }

  chat(messages: Extract<PromptInput, { kind: "chat" }>["messages"], options: Omit<GenerateRequest, "prompt"> = {}) {
    return this.generate({ ...options, prompt: { kind: "chat", messages } });
  }

  complete(text: string, options: Omit<GenerateRequest, "prompt"> = {}) {
    return this.generate({ ...options, prompt: { kind: "completion", text } });
  }

  alpaca(instruction: string, input?: string, options: Omit<GenerateRequest, "prompt"> = {}) {
    return this.generate({ ...options, prompt: { kind: "alpaca", instruction, ...(input === undefined ? {} : { input }) } });
  }

  infill(prefix: string, suffix: string, options: Omit<GenerateRequest, "prompt"> = {}) {
    return this.generate({ ...options, prompt: { kind: "infill", prefix, suffix } });
  }

  json<T = unknown>(request: JsonRequest): Promise<JsonResult<T>> {
    return generateValidatedJson<T>((r) => this.generate(r), request, { backoffMs: 0 });
  }

  /** Whether the model has fill-in-the-middle tokens (after load). */
  get hasInfillTokens(): boolean {
    return this.loaded !== undefined && this.loaded.tokenizer.hasInfillTokens;
  }

  /** The ids `generate` evaluates for this prompt (BOS included when the model prepends one); loads the model. */
  async promptTokens(prompt: PromptInput): Promise<number[]> {
    return (await this.ensureLoaded()).tokenizer.promptTokens(prompt);
  }

  /** The ids of a text on its own: no BOS, no special-token parsing (LlamaTokenizer.tokenize). */
  async tokenize(text: string): Promise<number[]> {
    return (await this.ensureLoaded()).tokenizer.tokenize(text);
  }

  /** The text of ids. */
  async detokenize(ids: readonly number[]): Promise<string> {
    return (await this.ensureLoaded()).tokenizer.detokenize(ids);
  }

  /** The id that ends a completion and stops generation (LlamaTokenizer.eosToken). */
  async eosToken(): Promise<number> {
    return (await this.ensureLoaded()).tokenizer.eosToken;
  }

  /** A training sample for this prompt and completion (LlamaTokenizer.sample). */
  async sample(prompt: PromptInput, completion: string): Promise<TokenSample> {
    return (await this.ensureLoaded()).tokenizer.sample(prompt, completion);
  }

  /**
   * The natural log-probability the model gives each of `tokens[from..]` after the tokens before
   * it (teacher forcing: one evaluation of the sequence, no sampling) — what a held-out
   * cross-entropy needs. From the raw logits: ln p = logit − max logit − ln Σ exp(logit − max).
   * Runs under the deadline like `generate`, on the same sequences (the prefix cache is kept when
   * `reusePrefix` is on).
   */
  tokenLogProbabilities(tokens: readonly number[], from: number, options: CallOptions = {}): Promise<number[]> {
    if (!(from >= 1 && from <= tokens.length)) {
      return Promise.reject(new ToolError("INVALID_INPUT", `from must be in [1, ${tokens.length}], got ${from}`));
    }
    return withDeadline(
      async (signal) => {
        const loaded = await this.ensureLoaded();
        if (tokens.length > this.config.contextSize) {
          throw new ToolError("INVALID_INPUT", `${tokens.length} tokens do not fit the context of ${this.config.contextSize} tokens.`);
        }
        const sequence = await loaded.pool.acquire(signal);
        try {
          const ids = tokens as Token[];
          let reused = 0;
          if (this.config.reusePrefix) {
            // Keep the cache of what is shared with the sequence's last tokens, up to the first token scored.
            await sequence.adaptStateToTokens(ids.slice(0, from - 1), false);
            reused = sequence.nextTokenIndex;
          } else {
            await sequence.clearHistory();
          }
          const input = ids.slice(reused).map((token, i): ControlledEvaluateInputItem => {
            const next = ids[reused + i + 1];
            if (reused + i < from - 1 || next === undefined) return token;
            return [token, { generateNext: { logits: { filter: { tokens: [next], includeTop: 1 } }, totalLogitWeight: true } }];
          });
          const results = await sequence.controlledEvaluate(input);
          if (signal.aborted) throw signal.reason;
          const out: number[] = [];
          for (let position = from; position < ids.length; position++) {
            const next = results[position - 1 - reused]?.next;
            const logits = next?.logits;
            const target = logits?.get(ids[position] as Token);
            // The filter keeps the target and the top token (its logit is the maximum).
            const max = logits === undefined || logits.size === 0 ? undefined : Math.max(...logits.values());
            if (target === undefined || max === undefined || next?.totalLogitWeight === undefined) {
              throw new ToolError("INTERNAL", `llama.cpp gave no logits for token ${position}.`);
            }
            out.push(target - max - Math.log(next.totalLogitWeight));
          }
          return out;
        } finally {
          loaded.pool.release(sequence);
        }
      },
      { timeoutMs: options.deadlineMs ?? this.config.deadlineMs, signal: options.signal, what: "Scoring" },
    );
  }

  /** Embeddings from the same GGUF model, one text at a time on a dedicated context. */
  async embed(texts: readonly string[], options: CallOptions = {}): Promise<Float32Array[]> {
    return withDeadline(
      async (signal) => {
        const loaded = await this.ensureLoaded();
        this.embedding ??= loaded.model.createEmbeddingContext({
          contextSize: Math.min(this.config.contextSize, 2048),
          ...(this.config.threads === undefined ? {} : { threads: this.config.threads }),
        });
        const context = await this.embedding;
        const run = this.embeddingQueue.then(async () => {
          const vectors: Float32Array[] = [];
          for (const text of texts) {
            if (signal.aborted) throw signal.reason;
            const { vector } = await context.getEmbeddingFor(text);
            vectors.push(normalise(vector));
          }
          return vectors;
        });
        this.embeddingQueue = run.catch(() => undefined);
        return run;
      },
      { timeoutMs: options.deadlineMs ?? Math.max(this.config.deadlineMs, 30_000), signal: options.signal, what: "Embedding" },
    );
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.readiness.markFailed("the engine was disposed");
    const loaded = await this.loading?.catch(() => undefined);
    if (!loaded) return;
    loaded.pool.drain(new ToolError("NOT_READY", "The engine is shutting down."));
    await (await this.embedding?.catch(() => undefined))?.dispose();
    await loaded.context.dispose();
    await loaded.model.dispose();
    await loaded.runtime.release();
  }

  private async ensureLoaded(): Promise<Loaded> {
    if (this.loaded) return this.loaded;
    await this.load();
    if (!this.loaded) throw new ToolError("NOT_READY", `${this.modelName} is not loaded.`);
    return this.loaded;
  }

  private async run(
    loaded: Loaded,
    sequence: LlamaContextSequence,
    request: GenerateRequest,
    signal: AbortSignal,
  ): Promise<GenerationResult> {
    const started = performance.now();
    const { model, llama } = loaded;
    const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.refuseOverlongText(loaded, request.prompt, maxTokens);
    const prepared = loaded.tokenizer.prepare(request.prompt);
    if (prepared.tokens.length + maxTokens > this.config.contextSize) {
      throw new ToolError(
        "INVALID_INPUT",
        `The prompt (${prepared.tokens.length} tokens) plus max_tokens (${maxTokens}) does not fit the context of ${this.config.contextSize} tokens.`,
        { suggestion: "Shorten the input or lower max_tokens.", details: { promptTokens: prepared.tokens.length, maxTokens } },
      );
    }
    const grammarState = request.jsonSchema
      ? await this.grammarStateFor(llama, model, toGrammarSchema(request.jsonSchema, request.grammarBounds))
      : undefined;
    const stops = [...prepared.stops, ...(request.stop ?? [])];
    // Watch memory while generating; the watcher aborts this controller (L-memory-bound).
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const stopWatching = this.memoryGuard.watch(controller);
    // Field names without "token": the logger redacts those as secrets.
    this.logger.debug("generating", { mode: prepared.mode, promptLength: prepared.tokens.length, maxLength: maxTokens });
    const generated: Token[] = [];
    const probabilities: number[] = [];
    let stopReason: StopReason = "max_tokens";
    let text = "";
    let reused = 0;
    try {
      if (this.config.reusePrefix && prepared.tokens.length > 1) {
        // Keep the cache of the longest common prefix, one token short of the prompt so that at
        // least one is evaluated and gives the next token's distribution (as LlamaCompletion does).
        await sequence.adaptStateToTokens(prepared.tokens.slice(0, -1), false);
        reused = sequence.nextTokenIndex;
      } else {
        await sequence.clearHistory();
      }
      if (maxTokens > 0) {
        const tokens = sequence.evaluateWithMetadata(
          prepared.tokens.slice(reused),
          { confidence: true },
          {
            temperature: request.temperature ?? 0,
            ...(request.topK === undefined ? {} : { topK: request.topK }),
            ...(request.topP === undefined ? {} : { topP: request.topP }),
            ...(request.seed === undefined ? {} : { seed: request.seed }),
            ...(grammarState ? { grammarEvaluationState: grammarState } : {}),
            yieldEogToken: true,
          },
        );
        for await (const { token, confidence } of tokens) {
          if (controller.signal.aborted) break;
          probabilities.push(confidence);
          if (model.isEogToken(token)) {
            stopReason = "eos";
            break;
          }
          generated.push(token);
          if (stops.length > 0 || request.stopWhen) {
            const current = loaded.tokenizer.continuationText(generated, prepared.tokens);
            const cut = firstStop(current, stops);
            if (cut !== undefined) {
              text = current.slice(0, cut);
              stopReason = "stop";
              break;
            }
            if (request.stopWhen?.(current)) {
              text = current;
              stopReason = "stop";
              break;
            }
          }
          if (generated.length >= maxTokens) break;
        }
      }
      if (controller.signal.aborted) {
        // The loop saw the abort (client cancellation, deadline or memory bound) and stopped at the next token.
        const ms = Math.round(performance.now() - started);
        this.logger.info("generation stopped", {
          generated: generated.length,
          maxLength: maxTokens,
          ms,
          reason: toToolError(controller.signal.reason).message,
        });
        throw controller.signal.reason;
      }
      if (stopReason !== "stop") text = loaded.tokenizer.continuationText(generated, prepared.tokens);
      this.onSequenceTokens?.(sequence.contextTokens);
    } finally {
      stopWatching();
      signal.removeEventListener("abort", onAbort);
    }
    return {
      text,
      tokensIn: prepared.tokens.length,
      tokensOut: generated.length,
      ...(this.config.reusePrefix ? { tokensReused: reused } : {}),
      wallMs: performance.now() - started,
      confidence: confidenceFromProbabilities(probabilities),
      stopReason,
      mode: prepared.mode,
    };
  }

  /**
   * Refuses, before tokenizing, a prompt whose text needs more tokens than the context has room
   * for even if every token stood for the vocabulary's longest piece. Tokenizing blocks the event
   * loop (the deadline cannot fire) and is superlinear on long runs in llama.cpp, so a huge input
   * would otherwise hold the call far past its deadline only to be refused afterwards.
   */
  private refuseOverlongText(loaded: Loaded, prompt: PromptInput, maxTokens: number): void {
    if (loaded.longestTokenText === undefined) return;
    const units = promptTextUnits(prompt, loaded.tokenizer.hasInfillTokens);
    const fewest = Math.ceil(units / loaded.longestTokenText);
    if (fewest + maxTokens <= this.config.contextSize) return;
    throw new ToolError(
      "INVALID_INPUT",
      `The prompt (${units} characters: at least ${fewest} tokens) plus max_tokens (${maxTokens}) does not fit the context of ${this.config.contextSize} tokens.`,
      { suggestion: "Shorten the input or lower max_tokens.", details: { promptChars: units, minPromptTokens: fewest, maxTokens } },
    );
  }

  private grammarCache = new Map<string, Promise<LlamaGrammar>>();

  /**
   * A grammar state for JSON matching `schema`. node-llama-cpp's JSON grammar lets numbers carry
   * exponents (`60E85185` parses to Infinity), so the grammar text is rebuilt without the exponent
   * part: every number the model can write is a plain finite decimal. Grammars are cached.
   */
  private async grammarStateFor(llama: Llama, model: LlamaModel, schema: Record<string, unknown>) {
    const key = JSON.stringify(schema);
    let grammar = this.grammarCache.get(key);
    if (!grammar) {
      grammar = llama
        .createGrammarForJsonSchema(schema as never)
        .then((json) => llama.createGrammar({ grammar: json.grammar.split(EXPONENT_RULE).join(""), trimWhitespaceSuffix: true }));
      this.grammarCache.set(key, grammar);
    }
    let resolved: LlamaGrammar;
    try {
      resolved = await grammar;
    } catch (error) {
      this.grammarCache.delete(key);
      throw new ToolError("INVALID_INPUT", `This JSON schema cannot be turned into a grammar: ${(error as Error).message}`, {
        suggestion: "Use plain types, enums, arrays and objects in the schema.",
      });
    }
    const { LlamaGrammarEvaluationState } = await import("node-llama-cpp");
    return new LlamaGrammarEvaluationState({ model, grammar: resolved });
  }
}

/** The exponent part of the number rules in node-llama-cpp's JSON grammar (GBNF). */
const EXPONENT_RULE = ' ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?';

/** Index where the first stop string starts, if any. */
function firstStop(text: string, stops: readonly string[]): number | undefined {
  let best: number | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && (best === undefined || at < best)) best = at;
  }
  return best;
}

function normalise(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = norm > 0 ? (vector[i] ?? 0) / norm : 0;
  return out;
}
