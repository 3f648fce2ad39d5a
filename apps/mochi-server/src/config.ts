import { isAbsolute, resolve } from "node:path";
import { ConfigError, parseCommonConfig, parseEnvConfig, type CommonConfig, type Env } from "@local-mcp/core";
import { z } from "zod";
import { parseAdapterList, type AdapterSpec } from "./domain/model/adapter-spec.js";

const GiB = 1024 ** 3;
const UNITS: Record<string, number> = { "": 1, B: 1, K: 1024, M: 1024 ** 2, G: GiB, T: 1024 ** 4 };

/** `32GB`, `32G`, `32GiB`, `512MB`, `34359738368`: binary units (1 GB = 1024³ bytes). */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*$/i.exec(text);
  if (!match) return undefined;
  const bytes = Number(match[1]) * (UNITS[(match[2] ?? "").toUpperCase()] ?? 1);
  return Number.isFinite(bytes) && bytes > 0 ? Math.round(bytes) : undefined;
}

const BOOLEAN = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(["1", "0", "true", "false", "yes", "no", "on", "off"]))
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

/** `MOCHI_ADAPTER=none`, exactly: serve the stock base model without an adapter. */
export const NO_ADAPTER = "none";

const MochiEnvSchema = z.object({
  model: z.string().optional(),
  adapter: z
    .string()
    .transform((value, ctx) => {
      if (value.trim() === NO_ADAPTER) return NO_ADAPTER;
      try {
        return parseAdapterList(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `${(error as Error).message} (syntax: path.gguf[:scale][,path.gguf[:scale]]…)` });
        return z.NEVER;
      }
    })
    .optional(),
  catalog: z.string().default(".mochi/catalog.json"),
  gpu: z.enum(["auto", "metal", "cuda", "vulkan", "cpu"]).default("auto"),
  threads: z.coerce.number().int().min(1).max(256).optional(),
  contextSize: z.coerce.number().int().min(256).max(1_048_576).default(4096),
  context: BOOLEAN.default(true),
  requireAdapter: BOOLEAN.default(false),
  memoryBound: z
    .string()
    .transform((value, ctx) => {
      const bytes = parseByteSize(value);
      if (bytes === undefined) {
        ctx.addIssue({ code: "custom", message: `'${value}' is not a size; use e.g. 32GB, 16G, 8192MB or a number of bytes` });
        return z.NEVER;
      }
      return bytes;
    })
    .default(32 * GiB),
  deadlineMs: z.coerce.number().int().min(1).max(600_000).default(5_000),
  backendUrl: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//i.test(url), "use an http:// or https:// URL, e.g. http://127.0.0.1:8080/v1")
    .optional(),
  backendModel: z.string().trim().min(1).optional(),
  backendApiKey: z.string().optional(),
});

/** An OpenAI-compatible server (llama.cpp server, Ollama, vLLM) that runs the model instead of a local GGUF. */
export interface MochiBackendConfig {
  /** MOCHI_BACKEND_URL, e.g. http://127.0.0.1:8080/v1. */
  url: string;
  /** MOCHI_BACKEND_MODEL: the model name the server knows. */
  model: string;
  /** MOCHI_BACKEND_API_KEY: sent as a Bearer token; never logged or shown. */
  apiKey?: string | undefined;
}

export interface MochiConfig extends CommonConfig {
  /** Absolute path of the base model GGUF, if set. */
  modelPath?: string | undefined;
  /** GGUF LoRA adapters with absolute paths. */
  adapters: AdapterSpec[];
  /** `MOCHI_ADAPTER=none`: the stock base model serves, without an adapter, and every answer says so. */
  stockModel: boolean;
  /** `MOCHI_BACKEND_URL`: the model runs on that server (then there is no MOCHI_MODEL or MOCHI_ADAPTER). */
  backend?: MochiBackendConfig | undefined;
  /** Absolute path of the catalog file. */
  catalogPath: string;
  gpu: "auto" | "metal" | "cuda" | "vulkan" | "cpu";
  threads?: number | undefined;
  contextSize: number;
  /** MOCHI_CONTEXT (default on): complete_code and domain_query add the repository's context from the catalog (src/domain/context/). */
  repositoryContext: boolean;
  /** Catalog-only features (suggest_pattern, resources) also wait for the model and adapter. */
  requireAdapter: boolean;
  memoryBoundBytes: number;
  deadlineMs: number;
}

/**
 * The only place mochi reads its environment (passed in, never `process.env` here). Relative
 * paths are resolved against `cwd`. A bad value throws a ConfigError naming the variable.
 */
export function loadMochiConfig(env: Env, cwd: string): MochiConfig {
  const parsed = parseEnvConfig("MOCHI_", MochiEnvSchema, env);
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));
  const backend = backendConfig(parsed);
  if (parsed.adapter && !parsed.model && !backend) {
    throw new ConfigError("Invalid configuration: MOCHI_ADAPTER is set but MOCHI_MODEL is not; an adapter needs its base model.", [
      { variable: "MOCHI_MODEL", message: "required when MOCHI_ADAPTER is set" },
    ]);
  }
  const adapters = parsed.adapter === NO_ADAPTER ? [] : (parsed.adapter ?? []);
  return {
    ...parseCommonConfig(env),
    modelPath: parsed.model === undefined ? undefined : absolute(parsed.model),
    adapters: adapters.map((a) => ({ path: absolute(a.path), scale: a.scale })),
    stockModel: parsed.adapter === NO_ADAPTER,
    backend,
    catalogPath: absolute(parsed.catalog),
    gpu: parsed.gpu,
    threads: parsed.threads,
    contextSize: parsed.contextSize,
    repositoryContext: parsed.context,
    requireAdapter: parsed.requireAdapter,
    memoryBoundBytes: parsed.memoryBound,
    deadlineMs: parsed.deadlineMs,
  };
}

/**
 * The remote backend from MOCHI_BACKEND_URL, MOCHI_BACKEND_MODEL and MOCHI_BACKEND_API_KEY (as
 * local-model's LOCAL_MODEL_REMOTE_*): a URL needs a model name, and excludes a local MOCHI_MODEL
 * and MOCHI_ADAPTER — the server runs the model and adapter its operator configured.
 */
function backendConfig(parsed: z.infer<typeof MochiEnvSchema>): MochiBackendConfig | undefined {
  const fail = (variable: string, message: string, detail: string): never => {
    throw new ConfigError(`Invalid configuration: ${message}`, [{ variable, message: detail }]);
  };
  if (parsed.backendUrl === undefined) {
    if (parsed.backendModel !== undefined)
      fail("MOCHI_BACKEND_URL", "MOCHI_BACKEND_MODEL is set but MOCHI_BACKEND_URL is not.", "required with MOCHI_BACKEND_MODEL");
    if (parsed.backendApiKey !== undefined)
      fail("MOCHI_BACKEND_URL", "MOCHI_BACKEND_API_KEY is set but MOCHI_BACKEND_URL is not.", "required with MOCHI_BACKEND_API_KEY");
    return undefined;
  }
  if (parsed.model !== undefined)
    fail("MOCHI_MODEL", "set either MOCHI_MODEL or MOCHI_BACKEND_URL, not both.", "conflicts with MOCHI_BACKEND_URL");
  if (parsed.adapter !== undefined) {
    fail(
      "MOCHI_ADAPTER",
      "MOCHI_ADAPTER applies to a local MOCHI_MODEL; with MOCHI_BACKEND_URL the server runs the model and adapter its operator configured (llama.cpp: llama-server --lora). Unset MOCHI_ADAPTER.",
      "conflicts with MOCHI_BACKEND_URL",
    );
  }
  if (parsed.backendModel === undefined) {
    fail(
      "MOCHI_BACKEND_MODEL",
      "MOCHI_BACKEND_URL needs MOCHI_BACKEND_MODEL, the model name the server knows.",
      "required with MOCHI_BACKEND_URL",
    );
  }
  return { url: parsed.backendUrl, model: parsed.backendModel as string, apiKey: parsed.backendApiKey };
}
