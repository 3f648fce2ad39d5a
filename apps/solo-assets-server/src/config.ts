/**
 * The configuration of the solo-assets bins — the only module that reads the environment (the
 * bins hand it `process.env` and `process.cwd()`).
 * `SOLO_*` variables are parsed with zod through core's `parseEnvConfig`, the
 * shared `LOCAL_MCP_*` ones through `parseCommonConfig`, the Gemini key through
 * `geminiApiKeyFromEnv`. The environment is a parameter, so tests inject it. Settings chosen in
 * the dashboard live in a file next to the library (see domain/settings); a variable set here
 * wins over that file.
 */
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseCommonConfig, parseEnvConfig } from "@local-mcp/core";
import type { CommonConfig, Env } from "@local-mcp/core";
import { geminiApiKeyFromEnv } from "@local-mcp/core/embeddings";
import { z } from "zod";

const ms = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

const SoloEnvSchema = z.object({
  dbPath: z.string().trim().min(1).optional(),
  envsDir: z.string().trim().min(1).optional(),
  embedder: z.enum(["auto", "local", "gemini", "openai", "gguf"]).optional(),
  embeddingModel: z.string().trim().min(1).optional(),
  embeddingUrl: z.url().optional(),
  embeddingApiKey: z.string().trim().min(1).optional(),
  embeddingModelPath: z.string().trim().min(1).optional(),
  embeddingDimension: z.coerce.number().int().min(16).max(3072).optional(),
  geminiBaseUrl: z.url().optional(),
  critic: z.enum(["auto", "off", "gemini", "local"]).optional(),
  criticModel: z.string().trim().min(1).optional(),
  criticModelPath: z.string().trim().min(1).optional(),
  criticThreshold: z.coerce.number().int().min(0).max(100).default(80),
  criticThreads: z.coerce.number().int().min(1).max(256).optional(),
  criticTimeoutMs: ms(1_000, 600_000, 60_000),
  linter: z.enum(["auto", "ruff", "ruff-wasm"]).default("auto"),
  typer: z.enum(["auto", "mypy", "pyright"]).default("auto"),
  python: z.string().trim().min(1).default("python3"),
  installer: z.enum(["auto", "uv", "pip"]).default("auto"),
  installTimeoutMs: ms(1_000, 3_600_000, 300_000),
  testTimeoutMs: ms(100, 600_000, 30_000),
  testMemoryMb: z.coerce.number().int().min(64).max(1_048_576).default(1024),
  testMaxProcesses: z.coerce.number().int().min(8).max(65_536).default(128),
  sandbox: z.enum(["strict", "weak"]).default("strict"),
  lockTimeoutMs: ms(100, 600_000, 30_000),
  lineLength: z.coerce.number().int().min(40).max(400).default(88),
  duplicates: z.enum(["refuse", "warn", "off"]).default("refuse"),
  similar: z.enum(["refuse", "warn", "off"]).default("warn"),
  similarThreshold: z.coerce.number().min(0).max(1).default(0.8),
});
type SoloEnv = z.infer<typeof SoloEnvSchema>;

export type EmbedderChoice = NonNullable<SoloEnv["embedder"]>;
export type CriticChoice = NonNullable<SoloEnv["critic"]>;

/** Where the library keeps its files; all derived from the database path unless set. */
export interface SoloPaths {
  /** The DuckDB file (SOLO_DB_PATH). */
  dbPath: string;
  /** Pooled Python environments, one folder per dependency hash (SOLO_ENVS_DIR). */
  envsDir: string;
  /** Dashboard settings (JSON, mode 0600). */
  settingsPath: string;
  /** The Gemini API key saved from the dashboard (mode 0600). */
  apiKeyPath: string;
  /** One file per process using the library (MCP servers, dashboard). */
  processesDir: string;
  /** mypy's cache, shared by every save (keeps a warm type check fast). */
  typeCacheDir: string;
}

export interface SoloAssetsConfig extends CommonConfig {
  paths: SoloPaths;
  /** Variables that override the settings file (undefined: the file or the default decides). */
  overrides: {
    embedder?: EmbedderChoice | undefined;
    embeddingModel?: string | undefined;
    embeddingDimension?: number | undefined;
    /** The OpenAI-compatible embedding server's base URL (SOLO_EMBEDDING_URL). */
    embeddingUrl?: string | undefined;
    /** The GGUF embedding model (SOLO_EMBEDDING_MODEL_PATH). */
    embeddingModelPath?: string | undefined;
    critic?: CriticChoice | undefined;
    criticModel?: string | undefined;
    criticModelPath?: string | undefined;
  };
  /** GOOGLE_API_KEY, else GEMINI_API_KEY. Never logged, never passed to saved code. */
  geminiApiKey: string | undefined;
  /** Bearer token for the OpenAI-compatible embedding server (SOLO_EMBEDDING_API_KEY); never logged. */
  embeddingApiKey: string | undefined;
  geminiBaseUrl: string | undefined;
  criticThreshold: number;
  /** CPU threads of the local critic (unset: llama.cpp decides). */
  criticThreads: number | undefined;
  criticTimeoutMs: number;
  linter: SoloEnv["linter"];
  typer: SoloEnv["typer"];
  python: string;
  installer: SoloEnv["installer"];
  installTimeoutMs: number;
  testTimeoutMs: number;
  testMemoryMb: number;
  testMaxProcesses: number;
  sandbox: SoloEnv["sandbox"];
  lockTimeoutMs: number;
  /** Ruff's line limit; a longer line makes the gate run `ruff format` (SOLO_LINE_LENGTH). */
  lineLength: number;
  /** Keeping the library clean on save (domain/library/save-checks.ts). */
  cleanLibrary: { duplicates: SoloEnv["duplicates"]; similar: SoloEnv["similar"]; similarThreshold: number };
  /** The directory the bin was started in: the project `export` writes into (nothing outside it). */
  projectRoot: string;
  /**
   * The environment for the gate's own tools (ruff, mypy, pyright, pip, uv): this one without
   * anything that looks like a secret. Saved code never sees even this; its tests get a minimal
   * environment built from scratch, with the library's own files hidden (domain/gate/tests/sandbox.ts).
   */
  toolEnv: Record<string, string>;
}

/** Variable names whose values must never reach a tool or saved code. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)/i;

function toolEnvironment(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    // pip's and uv's own settings may carry an index credential; they stay with the installer.
    if (SECRET_NAME.test(key) && !/^(PIP|UV)_/.test(key)) continue;
    out[key] = value;
  }
  return out;
}

/** `$XDG_DATA_HOME/local-mcp`, else `~/.local/share/local-mcp`. */
function defaultDataDir(env: Env): string {
  const xdg = env.XDG_DATA_HOME?.trim();
  const home = env.HOME?.trim() || homedir();
  return join(xdg && xdg.length > 0 ? xdg : join(home, ".local", "share"), "local-mcp");
}

/** The configuration from `env`; relative paths resolve against `cwd`. A bad value throws core's ConfigError. */
export function loadSoloAssetsConfig(env: Env, cwd: string): SoloAssetsConfig {
  const common = parseCommonConfig(env);
  const own = parseEnvConfig("SOLO_", SoloEnvSchema, env);
  const dbPath = own.dbPath === undefined ? join(defaultDataDir(env), "solo-assets.duckdb") : resolve(cwd, own.dbPath);
  const dataDir = dirname(dbPath);
  const stem = dbPath.replace(/\.duckdb$/i, "");
  const envsDir = own.envsDir === undefined ? join(dataDir, "solo-assets-envs") : resolve(cwd, own.envsDir);
  return {
    ...common,
    paths: {
      dbPath,
      envsDir,
      settingsPath: `${stem}.settings.json`,
      apiKeyPath: `${stem}.gemini-key`,
      processesDir: `${stem}.processes`,
      typeCacheDir: join(envsDir, ".mypy-cache"),
    },
    overrides: {
      embedder: own.embedder,
      embeddingModel: own.embeddingModel,
      embeddingDimension: own.embeddingDimension,
      embeddingUrl: own.embeddingUrl,
      embeddingModelPath: own.embeddingModelPath === undefined ? undefined : resolve(cwd, own.embeddingModelPath),
      critic: own.critic,
      criticModel: own.criticModel,
      criticModelPath: own.criticModelPath === undefined ? undefined : resolve(cwd, own.criticModelPath),
    },
    geminiApiKey: geminiApiKeyFromEnv(env),
    embeddingApiKey: own.embeddingApiKey,
    geminiBaseUrl: own.geminiBaseUrl,
    criticThreshold: own.criticThreshold,
    criticThreads: own.criticThreads,
    criticTimeoutMs: own.criticTimeoutMs,
    linter: own.linter,
    typer: own.typer,
    python: own.python,
    installer: own.installer,
    installTimeoutMs: own.installTimeoutMs,
    testTimeoutMs: own.testTimeoutMs,
    testMemoryMb: own.testMemoryMb,
    testMaxProcesses: own.testMaxProcesses,
    sandbox: own.sandbox,
    lockTimeoutMs: own.lockTimeoutMs,
    lineLength: own.lineLength,
    cleanLibrary: { duplicates: own.duplicates, similar: own.similar, similarThreshold: own.similarThreshold },
    projectRoot: resolve(cwd),
    toolEnv: toolEnvironment(env),
  };
}
