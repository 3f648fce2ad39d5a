/**
 * Usage statistics kept across restarts: per tool, calls by engine, errors by code, tokens used
 * by the model, tokens saved and tokens over (answers that cost more than their input; never
 * counted as a negative saving), and recent latencies for p50/p95. Each process keeps what it
 * has not yet written as a delta and merges it into `stats.json` under a lock (read, add,
 * write a temporary file, rename), so concurrent servers add up instead of overwriting each
 * other and a reader never sees a half-written file. The lock (`stats.json.lock`, core's
 * directory lock) names its holder: one left by a killed process is taken over at once.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "@local-mcp/core";
import { withDirectoryLock, writeFileAtomic } from "@local-mcp/core";
import { percentile } from "./percentiles.js";

export type EngineName = "deterministic" | "model";

/** A merge is short: wait up to 5 s for it; a lock not refreshed for 10 s is taken over. */
const STATS_LOCK = { timeoutMs: 5_000, staleMs: 10_000 };

/** Latency samples kept per tool (the most recent ones). */
export const LATENCY_SAMPLES = 1000;

interface EngineTotals {
  calls: number;
  tokens_used: number;
  /** Sum of the savings of the calls that saved. */
  tokens_saved: number;
  /** Sum of what the calls that cost more than their input cost beyond it. */
  tokens_over: number;
}

interface ToolTotals {
  calls: number;
  engines: Partial<Record<EngineName, EngineTotals>>;
  errors: Record<string, number>;
  latencies_ms: number[];
}

export interface StatsFile {
  version: 1;
  since: string;
  updated_at: string;
  tools: Record<string, ToolTotals>;
}

export interface CallRecord {
  tool: string;
  latencyMs: number;
  /** A result: by which engine, with its tokens. */
  result?: { engine: EngineName; tokensUsed: number; tokensSaved: number; tokensOver: number };
  /** A failure: its error code. */
  errorCode?: string;
}

export interface ToolStatsView {
  calls: number;
  errors: number;
  errors_by_code: Record<string, number>;
  by_engine: Partial<Record<EngineName, EngineTotals>>;
  tokens_used: number;
  tokens_saved: number;
  tokens_over: number;
  latency_ms: { p50: number; p95: number; samples: number };
}

export interface StatsView {
  since: string | null;
  updated_at: string | null;
  persisted_in: string;
  tracking: boolean;
  totals: { calls: number; errors: number; tokens_used: number; tokens_saved: number; tokens_over: number };
  tools: Record<string, ToolStatsView>;
}

function emptyFile(): StatsFile {
  const now = new Date().toISOString();
  return { version: 1, since: now, updated_at: now, tools: {} };
}

function addInto(target: StatsFile, delta: StatsFile): StatsFile {
  for (const [tool, d] of Object.entries(delta.tools)) {
    const t = (target.tools[tool] ??= { calls: 0, engines: {}, errors: {}, latencies_ms: [] });
    t.calls += d.calls;
    for (const [engine, e] of Object.entries(d.engines) as [EngineName, EngineTotals][]) {
      const te = (t.engines[engine] ??= { calls: 0, tokens_used: 0, tokens_saved: 0, tokens_over: 0 });
      te.calls += e.calls;
      te.tokens_used += e.tokens_used;
      te.tokens_saved += e.tokens_saved;
      te.tokens_over += e.tokens_over;
    }
    for (const [code, n] of Object.entries(d.errors)) t.errors[code] = (t.errors[code] ?? 0) + n;
    t.latencies_ms = [...t.latencies_ms, ...d.latencies_ms].slice(-LATENCY_SAMPLES);
  }
  if (delta.since < target.since) target.since = delta.since;
  target.updated_at = new Date().toISOString();
  return target;
}

function isStatsFile(value: unknown): value is StatsFile {
  return (
    value !== null && typeof value === "object" && (value as StatsFile).version === 1 && typeof (value as StatsFile).tools === "object"
  );
}

/**
 * A file written before tokens_over existed summed signed savings into tokens_saved: a negative
 * sum is read as tokens over (the net is all that file kept), and a missing tokens_over as 0.
 */
function withTokensOver(file: StatsFile): StatsFile {
  for (const tool of Object.values(file.tools)) {
    for (const e of Object.values(tool.engines)) {
      const legacy = e as Partial<EngineTotals> & { tokens_saved: number };
      legacy.tokens_over ??= 0;
      if (legacy.tokens_saved < 0) {
        legacy.tokens_over -= legacy.tokens_saved;
        legacy.tokens_saved = 0;
      }
    }
  }
  return file;
}

export interface StatsStoreOptions {
  stateDir: string;
  logger: Logger;
  /** When false nothing is recorded or written. */
  enabled?: boolean;
}

export class StatsStore {
  readonly path: string;
  private readonly lockPath: string;
  private readonly logger: Logger;
  private readonly enabled: boolean;
  private pending: StatsFile | undefined;
  private flushing: Promise<void> | undefined;
  private again = false;

  constructor(private readonly options: StatsStoreOptions) {
    this.path = join(options.stateDir, "stats.json");
    this.lockPath = join(options.stateDir, "stats.json.lock");
    this.logger = options.logger;
    this.enabled = options.enabled ?? true;
  }

  /** Counts one call and schedules a merge into the file. */
  record(call: CallRecord): void {
    if (!this.enabled) return;
    const delta = (this.pending ??= emptyFile());
    const t = (delta.tools[call.tool] ??= { calls: 0, engines: {}, errors: {}, latencies_ms: [] });
    t.calls += 1;
    t.latencies_ms.push(Math.round(call.latencyMs * 10) / 10);
    if (call.result) {
      const e = (t.engines[call.result.engine] ??= { calls: 0, tokens_used: 0, tokens_saved: 0, tokens_over: 0 });
      e.calls += 1;
      e.tokens_used += call.result.tokensUsed;
      e.tokens_saved += call.result.tokensSaved;
      e.tokens_over += call.result.tokensOver;
    }
    if (call.errorCode) t.errors[call.errorCode] = (t.errors[call.errorCode] ?? 0) + 1;
    void this.flush();
  }

  /** Merges what is pending into the file; resolves once everything recorded so far is written. */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      do {
        this.again = false;
        await this.writePending();
      } while (this.again);
    })().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    const delta = this.pending;
    if (!delta) return;
    this.pending = undefined;
    try {
      await mkdir(this.options.stateDir, { recursive: true });
      await withDirectoryLock(
        this.lockPath,
        async (lock) => {
          const current = await this.readFile();
          // Taken over as stale meanwhile (a merge stalled for 10 s): keep the delta for next time.
          if (!lock.isHeld()) throw new Error(`lost ${this.lockPath} before writing`);
          await writeFileAtomic(this.path, `${JSON.stringify(addInto(current ?? emptyFile(), delta), null, 2)}\n`);
        },
        STATS_LOCK,
      );
    } catch (error) {
      // Keep the numbers for the next attempt rather than losing them.
      this.pending = this.pending ? addInto(delta, this.pending) : delta;
      this.logger.warn("could not write stats; will retry with the next call", { error: (error as Error).message });
    }
  }

  private async readFile(): Promise<StatsFile | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (isStatsFile(parsed)) return withTokensOver(parsed);
    } catch {
      // fall through: an unreadable file is set aside below
    }
    this.logger.warn(`stats file ${this.path} is not readable stats; starting a new one`);
    return undefined;
  }

  /** The persisted totals plus anything not yet written, as the `local://stats` resource shows them. */
  async view(): Promise<StatsView> {
    // A merge in flight holds calls that are neither pending nor in the file yet: wait for it.
    await this.flush();
    const persisted = (await this.readFile().catch(() => undefined)) ?? undefined;
    const merged = addInto(structuredClone(persisted ?? emptyFile()), structuredClone(this.pending ?? emptyFile()));
    const tools: Record<string, ToolStatsView> = {};
    const totals = { calls: 0, errors: 0, tokens_used: 0, tokens_saved: 0, tokens_over: 0 };
    for (const name of Object.keys(merged.tools).sort()) {
      const t = merged.tools[name] as ToolTotals;
      const engines = Object.values(t.engines);
      const errors = Object.values(t.errors).reduce((s, n) => s + n, 0);
      const view: ToolStatsView = {
        calls: t.calls,
        errors,
        errors_by_code: t.errors,
        by_engine: t.engines,
        tokens_used: engines.reduce((s, e) => s + e.tokens_used, 0),
        tokens_saved: engines.reduce((s, e) => s + e.tokens_saved, 0),
        tokens_over: engines.reduce((s, e) => s + e.tokens_over, 0),
        latency_ms: { p50: percentile(t.latencies_ms, 50), p95: percentile(t.latencies_ms, 95), samples: t.latencies_ms.length },
      };
      tools[name] = view;
      totals.calls += view.calls;
      totals.errors += view.errors;
      totals.tokens_used += view.tokens_used;
      totals.tokens_saved += view.tokens_saved;
      totals.tokens_over += view.tokens_over;
    }
    return {
      since: persisted || this.pending ? merged.since : null,
      updated_at: persisted?.updated_at ?? null,
      persisted_in: this.path,
      tracking: this.enabled,
      totals,
      tools,
    };
  }
}
