/**
 * Settings chosen in the dashboard, kept next to the library: `<library>.settings.json` (the
 * embedding and critic backends and models) and `<library>.gemini-key` (the API key). Both are
 * written with core's writeFileAtomic, mode 0600 (owner only) from the first byte; a temporary
 * file a killed write left is removed by the next write. The key is only ever read back to use
 * it — nothing returns it to a client.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "@local-mcp/core";
import { z } from "zod";

export const StoredSettingsSchema = z
  .object({
    embedder: z.enum(["auto", "local", "gemini", "openai", "gguf"]).optional(),
    embeddingUrl: z.url().optional(),
    embeddingModelPath: z.string().trim().min(1).max(4096).optional(),
    embeddingModel: z.string().trim().min(1).max(200).optional(),
    embeddingDimension: z.number().int().min(16).max(3072).optional(),
    critic: z.enum(["auto", "off", "gemini", "local"]).optional(),
    criticModel: z.string().trim().min(1).max(200).optional(),
    criticModelPath: z.string().trim().min(1).max(4096).optional(),
  })
  .strict();
export type StoredSettings = z.infer<typeof StoredSettingsSchema>;

const FILE_MODE = 0o600;

/** Writes `text` to `path` through a private temporary file and a rename (never half-written). */
async function writePrivateFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, text, { mode: FILE_MODE });
}

export class SettingsStore {
  constructor(private readonly paths: { settingsPath: string; apiKeyPath: string }) {}

  /** The stored settings; a missing file is `{}`, an unreadable one an error naming the file. */
  read(): StoredSettings {
    if (!existsSync(this.paths.settingsPath)) return {};
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.paths.settingsPath, "utf8"));
    } catch (error) {
      throw new Error(`The settings file ${this.paths.settingsPath} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = StoredSettingsSchema.safeParse(raw);
    if (!parsed.success) {
      throw new Error(
        `The settings file ${this.paths.settingsPath} is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    }
    return parsed.data;
  }

  /** Merges `patch` into the stored settings; `null` removes a setting. */
  async update(patch: { [K in keyof StoredSettings]?: StoredSettings[K] | null }): Promise<StoredSettings> {
    const merged: Record<string, unknown> = { ...this.read() };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else if (value !== undefined) merged[key] = value;
    }
    const next = StoredSettingsSchema.parse(merged);
    await writePrivateFile(this.paths.settingsPath, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }

  hasApiKey(): boolean {
    return this.readApiKey() !== undefined;
  }

  /** For building the Gemini clients only. */
  readApiKey(): string | undefined {
    if (!existsSync(this.paths.apiKeyPath)) return undefined;
    const key = readFileSync(this.paths.apiKeyPath, "utf8").trim();
    return key.length > 0 ? key : undefined;
  }

  async writeApiKey(key: string): Promise<void> {
    const trimmed = key.trim();
    if (trimmed.length === 0 || trimmed.length > 512 || /\s/.test(trimmed)) {
      throw new Error("An API key is one word of at most 512 characters.");
    }
    await writePrivateFile(this.paths.apiKeyPath, `${trimmed}\n`);
  }

  clearApiKey(): void {
    rmSync(this.paths.apiKeyPath, { force: true });
  }
}
