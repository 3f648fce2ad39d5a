/** The critic the effective settings name, or undefined when it is off. */
import type { Logger } from "@local-mcp/core";
import type { EffectiveSettings } from "../../settings/effective-settings.js";
import type { Critic } from "./critic.js";
import { GeminiCritic } from "./gemini-critic.js";
import { LocalCritic } from "./local-critic.js";

export function createCritic(
  settings: EffectiveSettings,
  options: { geminiBaseUrl?: string | undefined; timeoutMs: number; threads?: number | undefined; logger: Logger },
): Critic | undefined {
  const critic = settings.critic;
  if (critic.backend === "gemini" && settings.apiKey.value) {
    return new GeminiCritic({
      apiKey: settings.apiKey.value,
      ...(critic.model ? { model: critic.model } : {}),
      ...(options.geminiBaseUrl ? { baseUrl: options.geminiBaseUrl } : {}),
    });
  }
  if (critic.backend === "local" && critic.modelPath) {
    return new LocalCritic({ modelPath: critic.modelPath, timeoutMs: options.timeoutMs, threads: options.threads, logger: options.logger });
  }
  return undefined;
}
