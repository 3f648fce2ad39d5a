import type { ChatHistoryItem, ChatWrapper, LlamaModel, Token } from "node-llama-cpp";
import { ToolError } from "../errors.js";
import { createLogger, type Logger } from "../logger.js";
import type { ResolvedLlamaEngineConfig } from "./engine-config.js";
import { readLoadableModelHeader } from "./gguf/loadable.js";
import { acquireLlamaRuntime } from "./llama-runtime.js";
import { ALPACA_STOPS, alpacaPrompt } from "./prompt-formats.js";
import type { GenerationResult, PromptInput } from "./types.js";

/** The token ids a prompt is evaluated as, how it is run, and where its answer ends. */
/** Prompt tokens read before a continuation's first piece (detokenize's lastTokens). */
const CONTINUATION_CONTEXT = 8;

export interface PreparedPrompt {
  tokens: Token[];
  mode: GenerationResult["mode"];
  stops: string[];
}

/** A training sample: the prompt's ids, then the completion's, then the end-of-generation id. */
export interface TokenSample {
  ids: number[];
  /** How many of `ids` are the prompt (a trainer's loss covers `ids.slice(promptTokens)`). */
  promptTokens: number;
}

/**
 * A GGUF model's tokenizer as LlamaEngine uses it: the one place a PromptInput becomes token ids
 * (`prepare`), so the ids a trainer writes are the ids llama.cpp is fed for the same prompt.
 * LlamaEngine holds one over its loaded model; `openLlamaTokenizer` loads the vocabulary alone.
 */
export class LlamaTokenizer {
  private released = false;

  constructor(
    private readonly model: LlamaModel,
    private readonly chatWrapper: ChatWrapper,
    private readonly release: () => Promise<void> = async () => undefined,
  ) {}

  /** The id put ahead of every prompt, or undefined when the model prepends none. */
  get bosToken(): number | undefined {
    const { bos, shouldPrependBosToken } = this.model.tokens;
    return bos !== null && shouldPrependBosToken ? bos : undefined;
  }

  /**
   * The id that ends a completion: the model's end-of-sequence token (what a base model emits
   * after a text or a fill-in-the-middle answer), or its end-of-turn token when it has no EOS.
   * Generation stops on it (llama.cpp's end-of-generation set holds both).
   */
  get eosToken(): number {
    const { eos, eot } = this.model.tokens;
    const token = eos !== null && this.model.isEogToken(eos) ? eos : eot;
    if (token === null) throw new ToolError("NOT_READY", "The model has no end-of-sequence or end-of-turn token.", { recoverable: false });
    return token;
  }

  /** The id that ends a chat answer: end-of-turn when the model has one, else `eosToken`. */
  get eotToken(): number {
    const { eot } = this.model.tokens;
    return eot !== null && this.model.isEogToken(eot) ? eot : this.eosToken;
  }

  /** Whether the model has the three fill-in-the-middle tokens (prefix, suffix, middle). */
  get hasInfillTokens(): boolean {
    const { prefix, suffix, middle } = this.model.tokens.infill;
    return prefix !== null && suffix !== null && middle !== null;
  }

  /** The ids `generate` evaluates for this prompt, BOS included when the model prepends one. */
  promptTokens(prompt: PromptInput): number[] {
    return [...this.prepare(prompt).tokens];
  }

  /**
   * The ids of a text on its own: no BOS, special-token text (`<|im_end|>`) read as plain text.
   * A SentencePiece vocabulary adds its leading space, as it does to a completion prompt's text.
   */
  tokenize(text: string): number[] {
    return [...this.model.tokenize(text)];
  }

  /** The ids of a text that follows other tokens: as `tokenize`, without the leading space a SentencePiece vocabulary adds. */
  continuationTokens(text: string): number[] {
    return [...this.model.tokenize(text, false, "trimLeadingSpace")];
  }

  /** The text of ids (special tokens give no text). */
  detokenize(ids: readonly number[]): string {
    return this.model.detokenize(ids as Token[]);
  }

  /**
   * The text of ids that continue `before` (a prompt): read after those tokens, so a
   * SentencePiece vocabulary keeps the space its first piece starts with (alone, `▁▁▁▁return`
   * would read as three spaces: the space a text's first piece carries is dropped).
   */
  continuationText(ids: readonly number[], before: readonly number[]): string {
    return this.model.detokenize(ids as Token[], false, before.slice(-CONTINUATION_CONTEXT) as Token[]);
  }

  /**
   * A training sample: `promptTokens(prompt)`, the completion as it continues the prompt
   * (`continuationTokens`), then the id generation stops on (`eotToken` after a chat prompt,
   * `eosToken` otherwise), so the model learns to stop where the completion ends.
   */
  sample(prompt: PromptInput, completion: string): TokenSample {
    const promptIds = this.promptTokens(prompt);
    const end = prompt.kind === "chat" ? this.eotToken : this.eosToken;
    return { ids: [...promptIds, ...this.continuationTokens(completion), end], promptTokens: promptIds.length };
  }

  /** The one translation of a PromptInput into the ids llama.cpp evaluates, with its mode and stop strings. */
  prepare(prompt: PromptInput): PreparedPrompt {
    const model = this.model;
    const bos = this.bosToken === undefined ? [] : [this.bosToken as Token];
    switch (prompt.kind) {
      case "completion":
        return { tokens: [...bos, ...model.tokenize(prompt.text)], mode: "completion", stops: [] };
      case "alpaca":
        return {
          tokens: [...bos, ...model.tokenize(alpacaPrompt(prompt.instruction, prompt.input))],
          mode: "alpaca",
          stops: [...ALPACA_STOPS],
        };
      case "infill": {
        const { prefix, suffix, middle } = model.tokens.infill;
        if (prefix === null || suffix === null || middle === null) {
          return { tokens: [...bos, ...model.tokenize(prompt.prefix)], mode: "prefix-completion", stops: [] };
        }
        // PSM order: <prefix> code-before <suffix> code-after <middle> → the model writes the middle.
        // Each part is tokenized without the leading space a SentencePiece vocabulary adds to a text
        // (the code after a FIM token starts where the file does), as LlamaCompletion's infill does.
        const part = (text: string) => model.tokenize(text, false, "trimLeadingSpace");
        const tokens = [...bos, prefix, ...part(prompt.prefix), suffix, ...part(prompt.suffix), middle];
        return { tokens, mode: "infill", stops: [] };
      }
      case "chat": {
        const history: ChatHistoryItem[] = prompt.messages.map((m) =>
          m.role === "system"
            ? { type: "system", text: m.content }
            : m.role === "user"
              ? { type: "user", text: m.content }
              : { type: "model", response: [m.content] },
        );
        history.push({ type: "model", response: [] });
        const state = this.chatWrapper.generateContextState({ chatHistory: history });
        const stops = state.stopGenerationTriggers.map((t) => t.toString()).filter((s) => s.length > 0);
        return { tokens: state.contextText.tokenize(model.tokenizer), mode: "chat", stops };
      }
    }
  }

  /** Frees a tokenizer from `openLlamaTokenizer` (the engine's own is freed with the engine). */
  async dispose(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.release();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

export interface OpenLlamaTokenizerOptions {
  gpu?: ResolvedLlamaEngineConfig["gpu"];
  logger?: Logger;
  llamaLogLevel?: ResolvedLlamaEngineConfig["llamaLogLevel"];
}

/**
 * Loads only the vocabulary of a GGUF model (node-llama-cpp's `vocabOnly`: no weights, no
 * context), after the same header check as LlamaEngine (a bad file is NOT_READY, never a process
 * abort), to turn prompts and training text into ids. Dispose it when done.
 */
export async function openLlamaTokenizer(modelPath: string, options: OpenLlamaTokenizerOptions = {}): Promise<LlamaTokenizer> {
  await readLoadableModelHeader(modelPath);
  const logger = options.logger ?? createLogger({ name: "llama" });
  const runtime = await acquireLlamaRuntime(options.gpu ?? "auto", options.llamaLogLevel ?? "warn", logger);
  let model: LlamaModel;
  try {
    model = await runtime.llama.loadModel({ modelPath, vocabOnly: true });
  } catch (error) {
    await runtime.release();
    throw new ToolError("NOT_READY", `llama.cpp could not read the vocabulary of ${modelPath}: ${(error as Error).message}`, {
      recoverable: false,
    });
  }
  const { resolveChatWrapper } = await import("node-llama-cpp");
  return new LlamaTokenizer(model, resolveChatWrapper(model), async () => {
    await model.dispose();
    await runtime.release();
  });
}
