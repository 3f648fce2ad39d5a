/**
 * The stderr logger. stdout of a stdio MCP server carries JSON-RPC only, so every log line of
 * every server goes here (lint bans console.log in server code).
 */
export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(name: string): Logger;
}

export interface LoggerOptions {
  name: string;
  level?: LogLevel;
  /** Where lines go; defaults to process.stderr. Never stdout. */
  write?: (line: string) => void;
}

const SECRET_KEY = /(api[_-]?key|token|secret|password|authorization)/i;

/** Field values whose names look like secrets are never printed. */
function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = SECRET_KEY.test(key) ? "[redacted]" : value instanceof Error ? value.message : value;
  }
  return out;
}

export function createLogger(options: LoggerOptions): Logger {
  const threshold = RANK[options.level ?? "info"];
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const emit = (level: LogLevel, message: string, fields?: LogFields) => {
    if (RANK[level] < threshold) return;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${safeJson(redact(fields))}` : "";
    write(`${new Date().toISOString()} ${level.toUpperCase()} [${options.name}] ${message}${extra}\n`);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (name) => createLogger({ ...options, name: `${options.name}:${name}` }),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  } catch {
    return "[unserialisable]";
  }
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = createLogger({ name: "silent", level: "silent" });
