/**
 * Settings chosen in the dashboard, kept next to the library: `<library>.settings.json` (the
 * embedding and critic backends and models) and `<library>.gemini-key` (the API key). Both are
 * written atomically with mode 0600 (owner only). The key is only ever read back to use it —
 * nothing returns it to a client.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";

export const StoredSettingsSchema = z
  .object({
    embedder: z.enum(["auto", "local", "gemini"]).optional(),
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
function writePrivateFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, text, { mode: FILE_MODE });
  chmodSync(temporary, FILE_MODE);
  renameSync(temporary, path);
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
      throw new Error(`The settings file ${this.paths.settingsPath} is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
    return parsed.data;
  }

  /** Merges `patch` into the stored settings; `null` removes a setting. */
  update(patch: { [K in keyof StoredSettings]?: StoredSettings[K] | null }): StoredSettings {
    const merged: Record<string, unknown> = { ...this.read() };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else if (value !== undefined) merged[key] = value;
    }
    const next = StoredSettingsSchema.parse(merged);
    writePrivateFile(this.paths.settingsPath, `${JSON.stringify(next, null, 2)}\n`);
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

  writeApiKey(key: string): void {
    const trimmed = key.trim();
    if (trimmed.length === 0 || trimmed.length > 512 || /\s/.test(trimmed)) {
      throw new Error("An API key is one word of at most 512 characters.");
    }
    writePrivateFile(this.paths.apiKeyPath, `${trimmed}\n`);
  }

  clearApiKey(): void {
    rmSync(this.paths.apiKeyPath, { force: true });
  }
}
