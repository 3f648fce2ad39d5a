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

const MochiEnvSchema = z.object({
  model: z.string().optional(),
  adapter: z
    .string()
    .transform((value, ctx) => {
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
});

export interface MochiConfig extends CommonConfig {
  /** Absolute path of the base model GGUF, if set. */
  modelPath?: string | undefined;
  /** GGUF LoRA adapters with absolute paths. */
  adapters: AdapterSpec[];
  /** Absolute path of the catalog file. */
  catalogPath: string;
  gpu: "auto" | "metal" | "cuda" | "vulkan" | "cpu";
  threads?: number | undefined;
  contextSize: number;
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
  if (parsed.adapter && !parsed.model) {
    throw new ConfigError("Invalid configuration: MOCHI_ADAPTER is set but MOCHI_MODEL is not; an adapter needs its base model.", [
      { variable: "MOCHI_MODEL", message: "required when MOCHI_ADAPTER is set" },
    ]);
  }
  return {
    ...parseCommonConfig(env),
    modelPath: parsed.model === undefined ? undefined : absolute(parsed.model),
    adapters: (parsed.adapter ?? []).map((a) => ({ path: absolute(a.path), scale: a.scale })),
    catalogPath: absolute(parsed.catalog),
    gpu: parsed.gpu,
    threads: parsed.threads,
    contextSize: parsed.contextSize,
    requireAdapter: parsed.requireAdapter,
    memoryBoundBytes: parsed.memoryBound,
    deadlineMs: parsed.deadlineMs,
  };
}
