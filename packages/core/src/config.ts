import { z } from "zod";
import { ResponseLevelSchema } from "./response-level.js";
import { LOG_LEVELS } from "./logger.js";

/** The environment as a plain record; config modules take it as a parameter. */
export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(
    message: string,
    readonly issues: { variable: string; message: string }[],
  ) {
    super(message);
  }
}

/** `MODEL_PATH` → `modelPath`. */
export function envKeyToField(key: string): string {
  return key.toLowerCase().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `modelPath` → `MODEL_PATH`. */
export function fieldToEnvKey(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

/**
 * Parses the variables that start with `prefix` (e.g. `MOCHI_`) into the schema's fields:
 * `MOCHI_MODEL_PATH` becomes `modelPath`. Empty values count as unset. A bad value throws a
 * ConfigError naming the variable, so a user sees which setting to fix.
 */
export function parseEnvConfig<S extends z.ZodObject>(prefix: string, schema: S, env: Env): z.infer<S> {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith(prefix) || value === undefined || value === "") continue;
    raw[envKeyToField(key.slice(prefix.length))] = value;
  }
  // Parsed once per process: compiling zod's JIT fast path would cost start-up time for nothing.
  const result = schema.safeParse(raw, { jitless: true });
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    variable: `${prefix}${fieldToEnvKey(String(issue.path[0] ?? ""))}`,
    message: issue.message,
  }));
  throw new ConfigError(`Invalid configuration: ${issues.map((i) => `${i.variable}: ${i.message}`).join("; ")}`, issues);
}

/** Settings every server shares, read from `LOCAL_MCP_*`. */
export const CommonConfigSchema = z.object({
  responseLevel: ResponseLevelSchema.default("minimal"),
  logLevel: z.enum(LOG_LEVELS).default("info"),
  /** How often subscribed resources are compared for change notifications (resource-watch.ts). */
  resourcePollMs: z.coerce.number().int().min(50).max(3_600_000).default(2_000),
});
export type CommonConfig = z.infer<typeof CommonConfigSchema>;

export function parseCommonConfig(env: Env): CommonConfig {
  return parseEnvConfig("LOCAL_MCP_", CommonConfigSchema, env);
}

/**
 * Limits of the Streamable HTTP runner (`--http PORT`), read from `LOCAL_MCP_HTTP_*`: at most
 * `maxSessions` sessions live at once, and a session unused for `sessionIdleMs` is closed.
 */
export const HttpConfigSchema = z.object({
  maxSessions: z.coerce.number().int().min(1).max(10_000).default(100),
  sessionIdleMs: z.coerce
    .number()
    .int()
    .min(100)
    .max(7 * 24 * 3600 * 1000)
    .default(30 * 60 * 1000),
});
export type HttpConfig = z.infer<typeof HttpConfigSchema>;

export function parseHttpConfig(env: Env): HttpConfig {
  return parseEnvConfig("LOCAL_MCP_HTTP_", HttpConfigSchema, env);
}
