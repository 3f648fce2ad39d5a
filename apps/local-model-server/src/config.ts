/**
 * The only module that reads configuration: a `config.json` in the seed's format (model path or
 * remote endpoint, timeouts, retries, confidence threshold, templates dir, logging, roots, size
 * cap, state dir), overridden by `LOCAL_MODEL_*` environment variables. `env` and `cwd` are
 * parameters, so tests inject them and nothing else touches `process.env`.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import {
  ConfigError,
  LOG_LEVELS,
  isInsideAny,
  isPathInside,
  parseCommonConfig,
  parseEnvConfig,
  type Env,
  type LogLevel,
  type ResponseLevel,
} from "@local-mcp/core";
import { z } from "zod";
import { CONFIG_FILE_NAME } from "./app-info.js";

const MiB = 1024 * 1024;

/** No model: model tasks answer NOT_READY; deterministic tasks work. */
export interface NoModelConfig {
  kind: "none";
}

export interface LlamaModelConfig {
  kind: "llama";
  /** Absolute path of the GGUF file. */
  path: string;
  threads: number | undefined;
  contextSize: number;
  gpu: "auto" | "metal" | "cuda" | "vulkan" | "cpu";
  maxTokens: number;
  preload: boolean;
}

export interface RemoteModelConfig {
  kind: "remote";
  /** OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  maxTokens: number;
  preload: boolean;
}

export type ModelConfig = NoModelConfig | LlamaModelConfig | RemoteModelConfig;

export interface LocalModelConfig {
  /** The config file that was read, if any. */
  configFile: string | undefined;
  /**
   * "trusted": named by the user (`-c FILE` or LOCAL_MODEL_CONFIG); "project": found as
   * ./local-model.config.json in the working directory — project content, so it may only narrow
   * the roots and keep the state dir inside them or at its default place, sets no remote endpoint,
   * loads a model or templates only from inside the roots, and may only lower max_file_bytes.
   */
  configSource: "trusted" | "project" | undefined;
  cwd: string;
  /** The PATH git is looked up on (the environment's). */
  searchPath: string | undefined;
  /** Absolute, real directories every path must resolve under (default: the working directory). */
  roots: string[];
  /** Files larger than this are refused. */
  maxFileBytes: number;
  /** Deadline of one tool call, model generation included. */
  timeoutMs: number;
  /** Extra model attempts after an output that fails the schema. */
  maxRetries: number;
  /** Model results below this confidence come back with `success: false` (data kept). */
  confidenceThreshold: number;
  /** When true, data that fails the caller's `schema` makes `success` false. */
  strictSchema: boolean;
  /**
   * A model answer whose server gave no token probabilities (its confidence unknown): `require`
   * refuses it (UPSTREAM_ERROR naming this setting), `optional` returns it with `confidence: null`.
   */
  confidencePolicy: "require" | "optional";
  /** A directory of custom `.hbs` templates (they shadow shipped ones of the same name). */
  templatesDir: string | undefined;
  /**
   * Set (to the roots) when templatesDir came from a project's own config file: a custom template
   * whose real path lies outside them (a symlink out) cannot be used.
   */
  templatesConfinedTo: string[] | undefined;
  logLevel: LogLevel;
  responseLevel: ResponseLevel;
  /** How often watched resources (local-model://stats) are compared for change notifications. */
  resourcePollMs: number;
  /** Record calls, tokens and latency in the stats file. */
  tokenTracking: boolean;
  /** Where `stats.json` lives. */
  stateDir: string;
  /** Time bound of one regex search over one file. */
  regexTimeoutMs: number;
  /** Most characters of one file put into a model prompt (the rest is cut and marked). */
  maxInputChars: number;
  model: ModelConfig;
}

const positiveInt = z.number().int().positive();

/** `config.json` (snake_case, as in the seed). Unknown keys are refused so typos surface. */
const ConfigFileSchema = z
  .object({
    model: z
      .object({
        path: z.string().min(1).optional(),
        threads: z.number().int().min(1).max(256).optional(),
        context_size: z.number().int().min(256).max(1_048_576).optional(),
        gpu: z.enum(["auto", "metal", "cuda", "vulkan", "cpu"]).optional(),
        max_tokens: positiveInt.max(65_536).optional(),
        preload: z.boolean().optional(),
      })
      .strict()
      .optional(),
    remote: z
      .object({
        base_url: z.string().url(),
        model: z.string().min(1),
        api_key: z.string().optional(),
        max_tokens: positiveInt.max(65_536).optional(),
        preload: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** The seed's Ollama section: becomes a remote endpoint at `<host>/v1`. */
    ollama: z
      .object({
        host: z.string().url(),
        model: z.string().min(1),
        timeout_ms: positiveInt.optional(),
        max_retries: z.number().int().min(0).max(10).optional(),
      })
      .strict()
      .optional(),
    timeout_ms: positiveInt.optional(),
    max_retries: z.number().int().min(0).max(10).optional(),
    validation: z
      .object({
        confidence_threshold: z.number().min(0).max(1).optional(),
        strict_schema: z.boolean().optional(),
        confidence: z.enum(["require", "optional"]).optional(),
      })
      .strict()
      .optional(),
    templates_dir: z.string().min(1).optional(),
    logging: z
      .object({ level: z.enum(LOG_LEVELS).optional(), token_tracking: z.boolean().optional() })
      .strict()
      .optional(),
    roots: z.array(z.string().min(1)).min(1).optional(),
    max_file_bytes: positiveInt.optional(),
    state_dir: z.string().min(1).optional(),
    regex_timeout_ms: positiveInt.max(60_000).optional(),
    max_input_chars: positiveInt.optional(),
  })
  .strict();
type ConfigFile = z.infer<typeof ConfigFileSchema>;

const bool = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) => v === "true" || v === "1" || v === "yes");

/** `LOCAL_MODEL_*` variables; each overrides the matching config.json setting. */
const EnvSchema = z.object({
  config: z.string().optional(),
  modelPath: z.string().optional(),
  modelThreads: z.coerce.number().int().min(1).max(256).optional(),
  modelContextSize: z.coerce.number().int().min(256).max(1_048_576).optional(),
  modelGpu: z.enum(["auto", "metal", "cuda", "vulkan", "cpu"]).optional(),
  modelMaxTokens: z.coerce.number().int().positive().max(65_536).optional(),
  modelPreload: bool.optional(),
  remoteBaseUrl: z.string().url().optional(),
  remoteModel: z.string().optional(),
  remoteApiKey: z.string().optional(),
  timeoutMs: z.coerce.number().int().positive().optional(),
  maxRetries: z.coerce.number().int().min(0).max(10).optional(),
  confidenceThreshold: z.coerce.number().min(0).max(1).optional(),
  strictSchema: bool.optional(),
  confidence: z.enum(["require", "optional"]).optional(),
  templatesDir: z.string().optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  tokenTracking: bool.optional(),
  roots: z.string().optional(),
  maxFileBytes: z.coerce.number().int().positive().optional(),
  stateDir: z.string().optional(),
  regexTimeoutMs: z.coerce.number().int().positive().max(60_000).optional(),
  maxInputChars: z.coerce.number().int().positive().optional(),
});
type EnvOverrides = z.infer<typeof EnvSchema>;

/**
 * Reads the config file (if any) and the environment into one resolved, validated config. The file
 * is LOCAL_MODEL_CONFIG (the CLI's `-c FILE` sets it for its run), else ./local-model.config.json
 * when present.
 */
export function loadLocalModelConfig(env: Env, cwd: string): LocalModelConfig {
  cwd = resolve(cwd);
  const overrides = parseEnvConfig("LOCAL_MODEL_", EnvSchema, env);
  const common = parseCommonConfig(env);
  const named = overrides.config;
  const configFile =
    named !== undefined ? resolve(cwd, named) : existsSync(join(cwd, CONFIG_FILE_NAME)) ? join(cwd, CONFIG_FILE_NAME) : undefined;
  const configSource = configFile === undefined ? undefined : named !== undefined ? "trusted" : "project";
  const file = configFile === undefined ? {} : readConfigFile(configFile);
  const fileDir = configFile === undefined ? cwd : dirname(configFile);
  const fromFile = (p: string) => resolve(fileDir, p);
  const fromCwd = (p: string) => resolve(cwd, p);

  // Roots and state dir from the environment (set by the user in the client's config) or the defaults.
  const baseRoots = (
    overrides.roots !== undefined
      ? overrides.roots
          .split(delimiter)
          .filter((r) => r.length > 0)
          .map(fromCwd)
      : [cwd]
  ).map(realRoot);
  const defaultStateDir = join(env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state"), "local-model");
  const fileRoots = overrides.roots === undefined ? file.roots?.map(fromFile).map(realRoot) : undefined;
  const roots = fileRoots ?? baseRoots;
  const templatesDir =
    overrides.templatesDir !== undefined ? fromCwd(overrides.templatesDir) : file.templates_dir ? fromFile(file.templates_dir) : undefined;
  const fileStateDir = overrides.stateDir === undefined && file.state_dir ? fromFile(file.state_dir) : undefined;
  const stateDir = overrides.stateDir !== undefined ? fromCwd(overrides.stateDir) : (fileStateDir ?? defaultStateDir);
  const trustedMaxFileBytes = overrides.maxFileBytes ?? MiB;
  if (configSource === "project" && configFile !== undefined) {
    assertNarrowing(configFile, { baseRoots, fileRoots, roots, fileStateDir, defaultStateDir });
    assertProjectKeys(configFile, file, { roots, fromFile, trustedMaxFileBytes });
  }

  return {
    configFile,
    configSource,
    cwd,
    searchPath: env.PATH,
    roots,
    maxFileBytes: overrides.maxFileBytes ?? file.max_file_bytes ?? MiB,
    timeoutMs: overrides.timeoutMs ?? file.timeout_ms ?? file.ollama?.timeout_ms ?? 30_000,
    maxRetries: overrides.maxRetries ?? file.max_retries ?? file.ollama?.max_retries ?? 2,
    confidenceThreshold: overrides.confidenceThreshold ?? file.validation?.confidence_threshold ?? 0.7,
    strictSchema: overrides.strictSchema ?? file.validation?.strict_schema ?? true,
    confidencePolicy: overrides.confidence ?? file.validation?.confidence ?? "require",
    templatesDir,
    templatesConfinedTo:
      configSource === "project" && overrides.templatesDir === undefined && templatesDir !== undefined ? roots : undefined,
    logLevel: overrides.logLevel ?? file.logging?.level ?? common.logLevel,
    responseLevel: common.responseLevel,
    resourcePollMs: common.resourcePollMs,
    tokenTracking: overrides.tokenTracking ?? file.logging?.token_tracking ?? true,
    stateDir,
    regexTimeoutMs: overrides.regexTimeoutMs ?? file.regex_timeout_ms ?? 1_000,
    maxInputChars: overrides.maxInputChars ?? file.max_input_chars ?? 16_000,
    model: modelConfig(file, overrides, fromFile, fromCwd),
  };
}

/**
 * A config file found in the working directory is project content, which tools and whoever wrote
 * the project control: it may narrow what the server reads, never widen it. Its roots must lie
 * under the roots the environment (or the default, the working directory) allows, and its
 * state_dir under the resulting roots or the default state folder; anything else refuses to start.
 */
function assertNarrowing(
  configFile: string,
  limits: {
    baseRoots: string[];
    fileRoots: string[] | undefined;
    roots: string[];
    fileStateDir: string | undefined;
    defaultStateDir: string;
  },
): void {
  const suggestion = `set it in the client's config (LOCAL_MODEL_ROOTS, LOCAL_MODEL_STATE_DIR, or LOCAL_MODEL_CONFIG naming a file outside the project)`;
  const wider = (limits.fileRoots ?? []).filter((root) => !isInsideAny(limits.baseRoots, root));
  if (wider.length > 0) {
    throw new ConfigError(
      `${configFile}: roots ${wider.join(", ")} lie outside ${limits.baseRoots.join(", ")}; a project's own ${CONFIG_FILE_NAME} may only narrow the roots — ${suggestion}.`,
      [{ variable: `${configFile}: roots`, message: "widens the roots" }],
    );
  }
  if (limits.fileStateDir !== undefined) {
    const real = realOfNearest(limits.fileStateDir);
    if (!isInsideAny(limits.roots, real) && !isPathInside(realOfNearest(limits.defaultStateDir), real)) {
      throw new ConfigError(
        `${configFile}: state_dir ${limits.fileStateDir} lies outside the roots and the default state folder; a project's own ${CONFIG_FILE_NAME} may not move state elsewhere — ${suggestion}.`,
        [{ variable: `${configFile}: state_dir`, message: "outside the roots" }],
      );
    }
  }
}

/**
 * The other keys of a project's own config file, by what they could widen. Where data goes
 * (`remote`, the seed's `ollama`: an endpoint the project chose would receive every file sent to
 * the model, and the user's API key) is never taken from it; what is loaded (`model.path`,
 * `templates_dir`) only from inside the roots; `max_file_bytes` may only lower the cap. The rest
 * (model tuning, timeouts, retries, validation, logging, regex bound, prompt size) changes no
 * reach: it stays allowed.
 */
function assertProjectKeys(
  configFile: string,
  file: ConfigFile,
  limits: { roots: string[]; fromFile: (p: string) => string; trustedMaxFileBytes: number },
): void {
  const refuse = (key: string, why: string, message: string, setting: string) => {
    throw new ConfigError(
      `${configFile}: ${key} ${why}; a project's own ${CONFIG_FILE_NAME} may not ${message} — set it in the client's config (${setting}, or LOCAL_MODEL_CONFIG naming a file outside the project).`,
      [{ variable: `${configFile}: ${key}`, message: why }],
    );
  };
  const network = "choose where data is sent (the model endpoint receives the contents of the files it is given)";
  if (file.remote !== undefined) {
    refuse(
      `remote.base_url`,
      `sets the endpoint ${file.remote.base_url}`,
      network,
      "LOCAL_MODEL_REMOTE_BASE_URL, LOCAL_MODEL_REMOTE_MODEL, LOCAL_MODEL_REMOTE_API_KEY",
    );
  }
  if (file.ollama !== undefined) {
    refuse(`ollama.host`, `sets the endpoint ${file.ollama.host}`, network, "LOCAL_MODEL_REMOTE_BASE_URL, LOCAL_MODEL_REMOTE_MODEL");
  }
  const inRoots = (path: string) => isInsideAny(limits.roots, realOfNearest(path));
  const loaded = "load anything from outside the roots";
  if (file.model?.path !== undefined && !inRoots(limits.fromFile(file.model.path))) {
    refuse(
      "model.path",
      `${limits.fromFile(file.model.path)} lies outside the roots ${limits.roots.join(", ")}`,
      loaded,
      "LOCAL_MODEL_MODEL_PATH",
    );
  }
  if (file.templates_dir !== undefined && !inRoots(limits.fromFile(file.templates_dir))) {
    refuse(
      "templates_dir",
      `${limits.fromFile(file.templates_dir)} lies outside the roots ${limits.roots.join(", ")}`,
      loaded,
      "LOCAL_MODEL_TEMPLATES_DIR",
    );
  }
  if (file.max_file_bytes !== undefined && file.max_file_bytes > limits.trustedMaxFileBytes) {
    refuse(
      "max_file_bytes",
      `${file.max_file_bytes} is above ${limits.trustedMaxFileBytes}`,
      "raise the size cap",
      "LOCAL_MODEL_MAX_FILE_BYTES",
    );
  }
}

/**
 * The real path of `path`, or of its nearest existing ancestor joined with the rest (`path` itself
 * when nothing resolves). Synchronous, as config loading is: core's realPathOfNearest
 * (packages/core/src/files/path-guard.ts) is asynchronous and throws on errors other than "missing".
 */
function realOfNearest(path: string): string {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...rest);
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read the config file ${path}: ${(error as Error).message}`, [
      { variable: "LOCAL_MODEL_CONFIG", message: "file not readable" },
    ]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`The config file ${path} is not valid JSON: ${(error as Error).message}`, [
      { variable: path, message: "invalid JSON" },
    ]);
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    variable: `${path}: ${issue.path.map(String).join(".") || (issue.code === "unrecognized_keys" ? issue.keys.join(", ") : "(root)")}`,
    message: issue.message,
  }));
  throw new ConfigError(`Invalid config file: ${issues.map((i) => `${i.variable}: ${i.message}`).join("; ")}`, issues);
}

function modelConfig(file: ConfigFile, env: EnvOverrides, fromFile: (p: string) => string, fromCwd: (p: string) => string): ModelConfig {
  if (env.modelPath !== undefined && env.remoteBaseUrl !== undefined) {
    throw new ConfigError("Set either LOCAL_MODEL_MODEL_PATH or LOCAL_MODEL_REMOTE_BASE_URL, not both.", [
      { variable: "LOCAL_MODEL_MODEL_PATH", message: "conflicts with LOCAL_MODEL_REMOTE_BASE_URL" },
    ]);
  }
  const fileRemote =
    file.remote ?? (file.ollama ? { base_url: `${file.ollama.host.replace(/\/+$/, "")}/v1`, model: file.ollama.model } : undefined);
  if (env.modelPath === undefined && env.remoteBaseUrl === undefined && file.model?.path !== undefined && fileRemote !== undefined) {
    throw new ConfigError("The config file sets both model.path and a remote endpoint; keep one.", [
      { variable: "model.path", message: "conflicts with remote" },
    ]);
  }
  // An env variable for one kind replaces whatever kind the file chose.
  const useLlama = env.modelPath !== undefined || (env.remoteBaseUrl === undefined && file.model?.path !== undefined);
  if (useLlama) {
    const path = env.modelPath !== undefined ? fromCwd(env.modelPath) : fromFile(file.model?.path ?? "");
    return {
      kind: "llama",
      path,
      threads: env.modelThreads ?? file.model?.threads,
      contextSize: env.modelContextSize ?? file.model?.context_size ?? 8192,
      gpu: env.modelGpu ?? file.model?.gpu ?? "auto",
      maxTokens: env.modelMaxTokens ?? file.model?.max_tokens ?? 1024,
      preload: env.modelPreload ?? file.model?.preload ?? false,
    };
  }
  const baseUrl = env.remoteBaseUrl ?? fileRemote?.base_url;
  if (baseUrl === undefined) return { kind: "none" };
  const model = env.remoteModel ?? fileRemote?.model;
  if (model === undefined || model.length === 0) {
    throw new ConfigError("A remote endpoint needs a model name (remote.model or LOCAL_MODEL_REMOTE_MODEL).", [
      { variable: "LOCAL_MODEL_REMOTE_MODEL", message: "required with a remote endpoint" },
    ]);
  }
  return {
    kind: "remote",
    baseUrl,
    model,
    apiKey: env.remoteApiKey ?? file.remote?.api_key,
    maxTokens: env.modelMaxTokens ?? file.remote?.max_tokens ?? 1024,
    preload: env.modelPreload ?? file.remote?.preload ?? false,
  };
}

/** A root must be an existing directory; it is kept as its real path (symlinks resolved). */
function realRoot(path: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new ConfigError(`Root ${path} does not exist.`, [{ variable: "LOCAL_MODEL_ROOTS", message: `${path} does not exist` }]);
  }
  if (!statSync(real).isDirectory()) {
    throw new ConfigError(`Root ${path} is not a directory.`, [{ variable: "LOCAL_MODEL_ROOTS", message: `${path} is not a directory` }]);
  }
  return isAbsolute(real) ? real : resolve(real);
}

/** The config as shown by `local-model config check` (no secrets). */
export function describeConfig(config: LocalModelConfig): Record<string, unknown> {
  const model =
    config.model.kind === "remote" ? { ...config.model, apiKey: config.model.apiKey === undefined ? undefined : "[set]" } : config.model;
  // PATH is the environment's, not a setting: left out.
  const { searchPath: _searchPath, ...shown } = config;
  return { ...shown, model };
}
