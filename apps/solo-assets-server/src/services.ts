/**
 * Everything one process needs to work with the library, built from the configuration: the
 * database, the quality gate (linter, typer, pooled test environments, sandbox, critic), the
 * embedder and the function library on top, over the light context (context.ts). The MCP server
 * (on its first call), the CLI and the dashboard share it. Tools are detected lazily (the first
 * save probes ruff and mypy) and DuckDB loads with the first query, so building this does no I/O
 * beyond the context's small files.
 */
import { basename, dirname } from "node:path";
import type { Logger } from "@local-mcp/core";
import { createEmbedder } from "@local-mcp/core/embeddings";
import type { Embedder } from "@local-mcp/core/embeddings";
import type { SoloAssetsConfig, SoloPaths } from "./config.js";
import { openSoloContext } from "./context.js";
import type { SoloContext } from "./context.js";
import { createCritic } from "./domain/gate/critic/create-critic.js";
import type { Critic } from "./domain/gate/critic/critic.js";
import type { Linter } from "./domain/gate/lint/linter.js";
import { selectLinter } from "./domain/gate/lint/select-linter.js";
import { QualityGate } from "./domain/gate/quality-gate.js";
import { EnvironmentPool } from "./domain/gate/tests/environment-pool.js";
import { Sandbox } from "./domain/gate/tests/sandbox.js";
import type { SandboxCapabilities } from "./domain/gate/tests/sandbox.js";
import { PythonTestRunner } from "./domain/gate/tests/test-runner.js";
import { selectTyper } from "./domain/gate/typer/select-typer.js";
import type { Typer } from "./domain/gate/typer/typer.js";
import { Lazy } from "./domain/lazy.js";
import { BUILTIN_MIN_SIMILARITY, BuiltinEmbedder } from "./domain/search/builtin-embedder.js";
import { IndexPersistence } from "./domain/search/index-persistence.js";
import { GgufEmbedder, OpenAiCompatibleEmbedder } from "./domain/search/model-embedders.js";
import { FunctionLibrary } from "./domain/library/function-library.js";
import { createSaveChecker } from "./domain/library/save-checks.js";
import { analyzeSources } from "./domain/python/source-analysis.js";
import type { EffectiveSettings } from "./domain/settings/effective-settings.js";
import { LibraryDatabase } from "./domain/storage/library-database.js";
import { migrateLibrarySchema } from "./domain/storage/schema.js";

export interface GateTools {
  linter: string;
  typer: string;
  sandbox: SandboxCapabilities;
}

export interface SoloServices extends SoloContext {
  library: FunctionLibrary;
  embedder: Embedder;
  /** Which linter, typer and sandbox features this machine gives the gate (probes on first call). */
  gateTools(): Promise<GateTools>;
  dispose(): Promise<void>;
}

export function createSoloEmbedder(settings: EffectiveSettings, config: SoloAssetsConfig, logger: Logger): Embedder {
  const embedding = settings.embedding;
  if (embedding.backend === "gemini" && settings.apiKey.value) {
    return createEmbedder({
      backend: "gemini",
      apiKey: settings.apiKey.value,
      model: embedding.model,
      outputDimensionality: embedding.dimension,
      ...(config.geminiBaseUrl ? { baseUrl: config.geminiBaseUrl } : {}),
      logger: logger.child("gemini"),
    });
  }
  if (embedding.backend === "openai" && embedding.url) {
    return new OpenAiCompatibleEmbedder({
      baseUrl: embedding.url,
      model: embedding.model.replace(/^openai:/, ""),
      apiKey: config.embeddingApiKey,
      ...(embedding.dimension > 0 ? { dimension: embedding.dimension } : {}),
      logger: logger.child("embeddings"),
    });
  }
  if (embedding.backend === "gguf" && embedding.modelPath) {
    return new GgufEmbedder({ modelPath: embedding.modelPath, threads: config.criticThreads, logger: logger.child("embeddings") });
  }
  return new BuiltinEmbedder({ dimension: embedding.dimension });
}

/**
 * The library's own files next to its database — the database (and its WAL), the settings, the
 * saved API key, the process records, and their temporary files: saved code must not see them.
 */
export function libraryFiles(paths: SoloPaths): { dir: string; matches: (name: string) => boolean } {
  const names = [paths.dbPath, paths.settingsPath, paths.apiKeyPath, paths.processesDir].map((path) => basename(path));
  return { dir: dirname(paths.dbPath), matches: (name) => names.some((own) => name === own || name.startsWith(`${own}.`)) };
}

export function openSoloServices(config: SoloAssetsConfig, options: { logger?: Logger } = {}): SoloServices {
  return servicesFor(openSoloContext(config, options));
}

/** The services over a context already opened (the MCP server opens its context first). */
export function servicesFor(context: SoloContext): SoloServices {
  const { config, settings, logger } = context;

  const db = new LibraryDatabase(config.paths.dbPath, {
    lockTimeoutMs: config.lockTimeoutMs,
    migrate: migrateLibrarySchema,
    logger: logger.child("db"),
  });
  const env = config.toolEnv;
  const linter = new Lazy<Linter>(() => selectLinter(config.linter, env, config.lineLength, config.python));
  const typer = new Lazy<Typer>(() => selectTyper(config.typer, { python: config.python, cacheDir: config.paths.typeCacheDir, env }));
  const sandbox = new Sandbox({
    mode: config.sandbox,
    memoryMb: config.testMemoryMb,
    maxProcesses: config.testMaxProcesses,
    timeoutMs: config.testTimeoutMs,
    toolEnv: env,
    privateFiles: libraryFiles(config.paths),
  });
  const pool = new EnvironmentPool({
    envsDir: config.paths.envsDir,
    python: config.python,
    installer: config.installer,
    installTimeoutMs: config.installTimeoutMs,
    env,
    logger: logger.child("envs"),
  });
  const critic = createCritic(settings, {
    geminiBaseUrl: config.geminiBaseUrl,
    timeoutMs: config.criticTimeoutMs,
    threads: config.criticThreads,
    logger,
  });
  const gate = new QualityGate({
    linter: () => linter.get(),
    typer: () => typer.get(),
    tests: new PythonTestRunner(pool, sandbox, logger.child("tests")),
    critic: async (): Promise<Critic | undefined> => critic,
    criticThreshold: config.criticThreshold,
    criticTimeoutMs: config.criticTimeoutMs,
    logger: logger.child("gate"),
  });
  const embedder = createSoloEmbedder(settings, config, logger);
  const checks = createSaveChecker({
    db,
    python: config.python,
    env,
    policy: config.cleanLibrary,
    nearest: (text, k, options) => library.nearestFunctions(text, k, options),
  });
  const persistence = new IndexPersistence({ dbPath: config.paths.dbPath, logger: logger.child("index") });
  const library = new FunctionLibrary({
    db,
    gate,
    embedder,
    minSimilarity: embedder instanceof BuiltinEmbedder ? BUILTIN_MIN_SIMILARITY : 0,
    persistence,
    logger: logger.child("library"),
    checks,
    fingerprints: async (sources, signal) =>
      (await analyzeSources(config.python, env, sources, signal)).map((a) => (a.ok ? a.fingerprint : undefined)),
  });
  return {
    ...context,
    library,
    embedder,
    gateTools: async () => {
      const [l, t, s] = await Promise.all([linter.get(), typer.get(), sandbox.describe()]);
      return { linter: l.kind, typer: t.kind, sandbox: s };
    },
    dispose: async () => {
      await critic?.dispose?.();
      await embedder.dispose?.();
      await persistence.settled();
      await db.settled();
    },
  };
}
