/**
 * The critic on a local GGUF model through core's LlamaEngine (`@local-mcp/core/inference`,
 * which needs the optional `node-llama-cpp`). The answer is generated under the verdict's JSON
 * Schema and checked afterwards. The model loads on the first review and stays loaded.
 */
import { ToolError } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import type * as Inference from "@local-mcp/core/inference";
import type { LlamaEngine } from "@local-mcp/core/inference";
import { Lazy } from "../../lazy.js";
import { CRITIC_INSTRUCTIONS, criticPrompt, parseVerdict } from "./critic.js";
import type { Critic, CriticInput, CriticVerdict } from "./critic.js";

/**
 * The verdict's shape for the grammar. llama.cpp grammars cannot bound integers, and core checks
 * the answer against the schema it was given, so the ranges are left out here: parseVerdict
 * clamps scores into 0–100, and the grammar bounds the comment's length (grammarBounds).
 */
const LOCAL_VERDICT_SCHEMA = {
  type: "object",
  properties: {
    readability: { type: "integer" },
    docstring: { type: "integer" },
    reusability: { type: "integer" },
    comments: { type: "string" },
  },
  required: ["readability", "docstring", "reusability", "comments"],
  additionalProperties: false,
};

export interface LocalCriticOptions {
  modelPath: string;
  threads?: number | undefined;
  timeoutMs: number;
  logger: Logger;
}

export class LocalCritic implements Critic {
  readonly backend = "local";
  readonly model: string;
  private readonly engine: Lazy<LlamaEngine>;
  private loaded: LlamaEngine | undefined;

  constructor(private readonly options: LocalCriticOptions) {
    this.model = options.modelPath.split(/[\\/]/).pop() ?? options.modelPath;
    this.engine = new Lazy(async () => {
      let inference: typeof Inference;
      try {
        inference = await import("@local-mcp/core/inference");
      } catch (error) {
        throw new ToolError("NOT_READY", `The local critic needs @local-mcp/core/inference and node-llama-cpp: ${String(error)}`);
      }
      const engine = new inference.LlamaEngine(
        {
          modelPath: options.modelPath,
          contextSize: 4096,
          deadlineMs: options.timeoutMs,
          ...(options.threads === undefined ? {} : { threads: options.threads }),
        },
        { logger: options.logger.child("critic") },
      );
      await engine.load();
      this.loaded = engine;
      return engine;
    });
  }

  async review(input: CriticInput, signal: AbortSignal): Promise<CriticVerdict> {
    const engine = await this.engine.get();
    const result = await engine.json<Record<string, unknown>>({
      prompt: {
        kind: "chat",
        messages: [
          { role: "system", content: CRITIC_INSTRUCTIONS },
          { role: "user", content: criticPrompt(input) },
        ],
      },
      schema: LOCAL_VERDICT_SCHEMA,
      // The grammar bounds the comment, so the answer always fits the token budget.
      grammarBounds: { maxStringLength: 200, maxArrayItems: 4 },
      maxTokens: 400,
      temperature: 0,
      signal,
      deadlineMs: this.options.timeoutMs,
    });
    return parseVerdict(JSON.stringify(result.value), this.model);
  }

  async dispose(): Promise<void> {
    await this.loaded?.dispose();
  }
}
