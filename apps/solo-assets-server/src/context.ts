/**
 * The light part of a process's services: configuration, logger, settings and the process
 * records. The MCP server needs only this to answer initialize and tools/list; the library, the
 * gate and the embedder (services.ts) are built on the first call that needs them.
 */
import { createLogger } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import type { SoloAssetsConfig } from "./config.js";
import { ProcessRegistry } from "./domain/presence/process-registry.js";
import { resolveSettings } from "./domain/settings/effective-settings.js";
import type { EffectiveSettings } from "./domain/settings/effective-settings.js";
import { SettingsStore } from "./domain/settings/settings-store.js";

export interface SoloContext {
  config: SoloAssetsConfig;
  settings: EffectiveSettings;
  settingsStore: SettingsStore;
  registry: ProcessRegistry;
  logger: Logger;
}

/** Reads the settings file and the saved key (small files) and logs why a choice fell back. */
export function openSoloContext(config: SoloAssetsConfig, options: { logger?: Logger } = {}): SoloContext {
  const logger = options.logger ?? createLogger({ name: "solo-assets", level: config.logLevel });
  const settingsStore = new SettingsStore(config.paths);
  const settings = resolveSettings(config, settingsStore.read(), settingsStore.readApiKey());
  for (const note of [settings.embedding.note, settings.critic.note]) if (note) logger.warn(note);
  return { config, settings, settingsStore, registry: new ProcessRegistry(config.paths.processesDir), logger };
}
