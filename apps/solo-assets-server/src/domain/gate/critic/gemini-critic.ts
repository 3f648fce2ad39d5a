/**
 * The critic on the Gemini API through `@google/genai` (loaded on first use). Gemini models get
 * JSON mode with the verdict's schema; Gemma models (the seed's default, `gemma-3-27b-it`)
 * support neither JSON mode nor system instructions, so everything goes in the prompt and the
 * JSON is read from the answer. The API key is never logged or put in a message.
 */
import type { GoogleGenAI } from "@google/genai";
import { ToolError } from "@local-mcp/core";
import { Lazy } from "../../lazy.js";
import { VERDICT_JSON_SCHEMA, criticPrompt, parseVerdict } from "./critic.js";
import type { Critic, CriticInput, CriticVerdict } from "./critic.js";

export const DEFAULT_CRITIC_MODEL = "gemma-3-27b-it";

export interface GeminiCriticOptions {
  apiKey: string;
  model?: string;
  baseUrl?: string;
}

export class GeminiCritic implements Critic {
  readonly backend = "gemini";
  readonly model: string;
  private readonly client: Lazy<GoogleGenAI>;

  constructor(private readonly options: GeminiCriticOptions) {
    this.model = (options.model ?? DEFAULT_CRITIC_MODEL).replace(/^models\//, "");
    this.client = new Lazy(async () => {
      const sdk = await import("@google/genai");
      return new sdk.GoogleGenAI({
        apiKey: options.apiKey,
        vertexai: false,
        apiVersion: "v1beta",
        ...(options.baseUrl ? { httpOptions: { baseUrl: options.baseUrl } } : {}),
      });
    });
  }

  async review(input: CriticInput, signal: AbortSignal): Promise<CriticVerdict> {
    const client = await this.client.get();
    const jsonMode = this.model.startsWith("gemini");
    let text: string | undefined;
    try {
      const response = await client.models.generateContent({
        model: this.model,
        contents: [{ role: "user", parts: [{ text: criticPrompt(input) }] }],
        config: {
          temperature: 0,
          maxOutputTokens: 1024,
          abortSignal: signal,
          ...(jsonMode ? { responseMimeType: "application/json", responseJsonSchema: VERDICT_JSON_SCHEMA } : {}),
        },
      });
      text = response.text;
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const message = (error instanceof Error ? error.message : String(error)).split(this.options.apiKey).join("[redacted]");
      throw new ToolError("UPSTREAM_ERROR", `The Gemini critic (${this.model}) failed: ${message.slice(0, 300)}`);
    }
    if (!text) throw new ToolError("UPSTREAM_ERROR", `The Gemini critic (${this.model}) returned no text.`);
    return parseVerdict(text, this.model);
  }
}
