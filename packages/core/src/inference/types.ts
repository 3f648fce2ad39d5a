import type { Readiness } from "../guards/readiness.js";

/** A chat message; `system` messages set the assistant's instructions. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A JSON Schema object (draft 2020-12 subset that llama.cpp grammars and Ajv both understand). */
export type JsonSchema = Record<string, unknown>;

/** What to generate from. */
export type PromptInput =
  | { kind: "chat"; messages: readonly ChatMessage[] }
  | { kind: "completion"; text: string }
  /** `### Instruction` / `### Input` / `### Response` (the format Mochi was trained on). */
  | { kind: "alpaca"; instruction: string; input?: string }
  /** Fill-in-the-middle when the model has FIM tokens, otherwise completion of the prefix. */
  | { kind: "infill"; prefix: string; suffix: string };

export interface SamplingOptions {
  /** At most this many generated tokens (default 256). */
  maxTokens?: number;
  /** 0 (the default) is greedy and deterministic. */
  temperature?: number;
  topK?: number;
  topP?: number;
  seed?: number;
  /** Generation stops before any of these strings; they are not part of the text. */
  stop?: readonly string[];
  /**
   * A token-level stop condition: called with the text generated so far after each token;
   * generation stops after the token for which it returns true (that text is kept).
   */
  stopWhen?: (text: string) => boolean;
}

export interface CallOptions {
  /** Aborts the call (client cancellation); generation stops at the next token. */
  signal?: AbortSignal;
  /** Deadline for this call in ms, queue wait included; expiry gives TIMEOUT (default: the backend's). */
  deadlineMs?: number;
}

export interface GenerateRequest extends SamplingOptions, CallOptions {
  prompt: PromptInput;
  /** Constrain the output to JSON matching this schema (grammar on llama.cpp, response_format remotely). */
  jsonSchema?: JsonSchema;
  /** Bounds the llama.cpp grammar puts on strings and arrays the schema leaves unbounded. */
  grammarBounds?: { maxStringLength: number; maxArrayItems: number };
}

export type StopReason = "eos" | "stop" | "max_tokens";

/** Every result reports its cost and how sure the model was. */
export interface GenerationResult {
  text: string;
  tokensIn: number;
  tokensOut: number;
  /** Prompt tokens whose KV cache was kept from the previous call on the sequence (engine option `reusePrefix`). */
  tokensReused?: number;
  wallMs: number;
  /** In [0,1]: the geometric mean of the probabilities the model gave its own tokens (see confidence.ts). */
  confidence: number;
  /** Set (false) when the server returned no token probabilities: `confidence` is then 0 and measures nothing. */
  confidenceKnown?: false;
  stopReason: StopReason;
  /** How the prompt was run: `infill` used FIM tokens; `prefix-completion` means the model has none. */
  mode: "chat" | "completion" | "alpaca" | "infill" | "prefix-completion";
}

export interface JsonRequest extends Omit<GenerateRequest, "jsonSchema"> {
  schema: JsonSchema;
  /** Extra attempts after an invalid result, each told what was wrong (default 2). */
  maxRetries?: number;
}

export interface JsonResult<T = unknown> extends GenerationResult {
  value: T;
  retries: number;
  schemaValid: true;
}

/** The same interface over llama.cpp in process and over an OpenAI-compatible server. */
export interface InferenceBackend {
  readonly kind: "llama" | "remote";
  /** Model name for results and stored vectors. */
  readonly modelName: string;
  /** L-adapter-required: tools list it in `requires`. */
  readonly readiness: Readiness;
  /** Loads once; concurrent callers share the load. */
  load(options?: { onProgress?: (fraction: number) => void; signal?: AbortSignal }): Promise<void>;
  generate(request: GenerateRequest): Promise<GenerationResult>;
  json<T = unknown>(request: JsonRequest): Promise<JsonResult<T>>;
  embed(texts: readonly string[], options?: CallOptions): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}
