/**
 * One server's fuzz run in one protocol era: lay out its fixtures, start it, connect the client in
 * the era (`legacy`: the initialize handshake; `modern`: 2026-07-28, pinned), list its tools, send
 * the generated calls one after another (restarting the process if one kills it), check every
 * answer, then ask whether it still answers (ping; `server/discover` in the modern era, which has
 * no ping) and send the known-good call. Failed calls come back as regression cases.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { preloadResponseTokenizer } from "@local-mcp/core";
import type { Tool } from "@modelcontextprotocol/client";
import { CaseGenerator, type FuzzCase, type GoldenCall } from "./case-generator.js";
import { checkCall, type CallReport, type Failure } from "./checks.js";
import { FuzzConnection, type ServerLaunch } from "./connection.js";
import { eraOfCall, type Era } from "./era.js";
import type { RegressionCase } from "./regressions.js";
import { emptyTally, percentile, type Tally } from "./stats.js";
import type { FuzzTarget, PreparedTarget } from "./targets/index.js";

export interface FuzzRunOptions {
  /** The protocol era of the run's connections. */
  era: Era;
  /**
   * The eras the run's calls are split between (default: `era` alone): this run sends only the
   * calls of `calls` that eraOfCall gives `era`.
   */
  eras?: readonly Era[];
  /** Calls of the whole run, all eras together. */
  calls: number;
  seed: number;
  /** Time past a tool's deadline still accepted as on time. */
  slackMs: number;
  goldenRate: number;
  expensiveRate: number;
  /** INTERNAL answers fail the run (`failsOnInternal`: FUZZ_STRICT, else the target's default). */
  failOnInternal?: boolean;
  /** Keep the fixtures' directory (for a look after the run). */
  keepDir?: boolean;
  /** Called every `progressEvery` calls. */
  onProgress?: (done: number, tally: Tally) => void;
  progressEvery?: number;
}

export interface ServerSummary {
  server: string;
  era: Era;
  seed: number;
  tools: number;
  /** Calls this era was to send (its share of the run's calls). */
  planned: number;
  tally: Tally;
  maxLatencyMs: number;
  p50Ms: number;
  p99Ms: number;
  restarts: number;
  /** Non-JSON stdout lines over the whole run (all processes). */
  nonJsonLines: number;
  /** Answered a ping and the known-good call after the run. */
  answeredAfter: boolean;
  afterDetail: string;
  failed: RegressionCase[];
  /** Calls answered INTERNAL (a coded error, but one that reports a server bug): worth a look. */
  internal: { fuzzCase: FuzzCase; message: string }[];
  durationMs: number;
  dir: string;
}

/** How long the client waits past deadline + slack before it calls the answer missing. */
const CLIENT_GRACE_MS = 5_000;

function launchOf(target: FuzzTarget, prepared: PreparedTarget): ServerLaunch {
  return { command: process.execPath, args: [target.entry], env: prepared.env, cwd: prepared.cwd };
}

/** How long a server's model may take to load before the run gives up on it. */
const WARM_UP_MS = 120_000;

/**
 * Starts the target's server, connects in `era`, lists its tools and, when the target names a
 * warm-up call, repeats it (uncounted) until it succeeds — the model loaded — or WARM_UP_MS have
 * passed.
 */
async function startServer(target: FuzzTarget, prepared: PreparedTarget, era: Era): Promise<{ connection: FuzzConnection; tools: Tool[] }> {
  const connection = await FuzzConnection.start(launchOf(target, prepared), era);
  try {
    const tools = await connection.listTools();
    if (prepared.warmUp) await warmUp(connection, prepared, prepared.warmUp);
    return { connection, tools };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

async function warmUp(connection: FuzzConnection, prepared: PreparedTarget, call: GoldenCall): Promise<void> {
  const until = performance.now() + WARM_UP_MS;
  let last = "";
  while (performance.now() < until && connection.usable) {
    const outcome = await connection.callTool(call.tool, call.arguments, prepared.deadlineMs(call.tool) + CLIENT_GRACE_MS);
    if (outcome.kind === "result" && !outcome.result.isError) return;
    last =
      outcome.kind === "result" ? JSON.stringify(outcome.result.structuredContent ?? outcome.result.content).slice(0, 500) : outcome.kind;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `the warm-up call ${call.tool} did not succeed within ${WARM_UP_MS / 1000} s (the model did not load?): ${connection.exited ?? last}`,
  );
}

export interface CallChecks {
  prepared: PreparedTarget;
  slackMs: number;
  failOnInternal?: boolean | undefined;
  /** Files already found outside the root (each is reported once, by the call that wrote it). */
  seenOutside?: Set<string>;
}

/** Sends one case and checks the answer. */
export async function runCase(
  connection: FuzzConnection,
  fuzzCase: Pick<FuzzCase, "tool" | "arguments">,
  checks: CallChecks,
): Promise<{ report: CallReport; latencyMs: number }> {
  const deadlineMs = checks.prepared.deadlineMs(fuzzCase.tool);
  const before = connection.nonJsonLines.length;
  const outcome = await connection.callTool(fuzzCase.tool, fuzzCase.arguments, deadlineMs + checks.slackMs + CLIENT_GRACE_MS);
  if ((outcome.kind === "closed" || outcome.kind === "client-error") && !connection.exited) {
    // The pipe broke first (EPIPE, closed): give the exit event time to arrive.
    await connection.settle(2_000);
  }
  const writtenOutside = (await checks.prepared.writesOutside?.())?.filter((path) => !checks.seenOutside?.has(path));
  for (const path of writtenOutside ?? []) checks.seenOutside?.add(path);
  // checkCall counts an answer's tokens as core's budget does (o200k), synchronously.
  await preloadResponseTokenizer();
  const report = checkCall(outcome, {
    writtenOutside,
    deadlineMs,
    slackMs: checks.slackMs,
    sentinel: checks.prepared.sentinel,
    nonJsonBefore: before,
    nonJsonAfter: connection.nonJsonLines.length,
    exited: connection.exited ?? (connection.usable ? undefined : "stdin of the process closed"),
    failOnInternal: checks.failOnInternal,
  });
  return { report, latencyMs: outcome.latencyMs };
}

function record(tally: Tally, fuzzCase: FuzzCase, report: CallReport, latencyMs: number): void {
  tally.calls += 1;
  tally.latencies.push(latencyMs);
  tally.modes[fuzzCase.mode] = (tally.modes[fuzzCase.mode] ?? 0) + 1;
  const perTool = (tally.tools[fuzzCase.tool] ??= { calls: 0, ok: 0 });
  perTool.calls += 1;
  if (report.verdict === "ok") perTool.ok += 1;
  if (report.code !== undefined) tally.codes[report.code] = (tally.codes[report.code] ?? 0) + 1;
  if (report.verdict === "ok") tally.ok += 1;
  else if (report.verdict === "tool_error") tally.toolErrors += 1;
  else if (report.verdict === "protocol_error") tally.protocolErrors += 1;
  else tally.failedCalls += 1;
  for (const kind of new Set(report.failures.map((f) => f.kind))) tally.failures[kind] += 1;
}

/** The known-good call and a ping, after the run. */
async function answersAfter(
  connection: FuzzConnection,
  prepared: PreparedTarget,
  slackMs: number,
): Promise<{ ok: boolean; detail: string }> {
  if (connection.exited) return { ok: false, detail: `the process is gone (${connection.exited})` };
  const ping = connection.era === "modern" ? "server/discover" : "ping";
  if (!(await connection.ping())) return { ok: false, detail: `no answer to ${ping}` };
  const good = prepared.golden[0];
  if (!good) return { ok: true, detail: `${ping} answered (no known-good call)` };
  const { report } = await runCase(connection, good, { prepared, slackMs });
  if (report.verdict !== "ok")
    return { ok: false, detail: `${good.tool} did not succeed: ${report.code ?? report.failures.map((f) => f.detail).join("; ")}` };
  return { ok: true, detail: `${ping} and ${good.tool} answered` };
}

/** A server started for one era's run, on its own fixtures. */
export interface StartedRun {
  era: Era;
  dir: string;
  prepared: PreparedTarget;
  connection: FuzzConnection;
  tools: Tool[];
}

/** Lays out the target's fixtures in a fresh directory and starts its server in `era` (startServer). */
export async function startRun(target: FuzzTarget, era: Era, keepDir = false): Promise<StartedRun> {
  const dir = await mkdtemp(join(tmpdir(), `fuzz-${target.short}-${era}-`));
  try {
    const prepared = await target.prepare(dir);
    const { connection, tools } = await startServer(target, prepared, era);
    return { era, dir, prepared, connection, tools };
  } catch (error) {
    if (!keepDir) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Starts the target's server for every era at once, so that a later era's start (a model's load,
 * the longest part of it) overlaps the calls of the eras before it; each run is awaited by its own
 * fuzzServer. disposeRuns closes any that no run took.
 */
export function startRuns(target: FuzzTarget, eras: readonly Era[], keepDir = false): Map<Era, Promise<StartedRun>> {
  const runs = new Map<Era, Promise<StartedRun>>();
  for (const era of eras) {
    const run = startRun(target, era, keepDir);
    // A failed start is reported by the run that awaits it, not as an unhandled rejection.
    run.catch(() => undefined);
    runs.set(era, run);
  }
  return runs;
}

/** Closes the servers of runs that fuzzServer did not take (it closes its own) and removes their fixtures. */
export async function disposeRuns(runs: ReadonlyMap<Era, Promise<StartedRun>>, keepDir = false): Promise<void> {
  for (const run of runs.values()) {
    const started = await run.catch(() => undefined);
    if (!started) continue;
    await started.connection.close();
    if (!keepDir) await rm(started.dir, { recursive: true, force: true });
  }
}

/** Fuzzes the target in `options.era`, on a server started for it (`run`, from startRuns) or a fresh one. */
export async function fuzzServer(target: FuzzTarget, options: FuzzRunOptions, run?: Promise<StartedRun>): Promise<ServerSummary> {
  const started = performance.now();
  const startedRun = await (run ?? startRun(target, options.era, options.keepDir));
  if (startedRun.era !== options.era) throw new Error(`the run was started in the ${startedRun.era} era, not ${options.era}`);
  const { dir, prepared } = startedRun;
  let { connection, tools } = startedRun;
  const generator = new CaseGenerator({
    server: target.name,
    seed: options.seed,
    tools,
    hints: prepared.hints,
    golden: prepared.golden,
    goldenRate: options.goldenRate,
    expensiveRate: options.expensiveRate,
    mutation: { writeFields: prepared.writeFields, sandbox: prepared.sandbox, symlinkNames: prepared.symlinkNames },
    sanitize: prepared.sanitize,
  });
  const tally = emptyTally();
  const failed: RegressionCase[] = [];
  const internal: ServerSummary["internal"] = [];
  const seenOutside = new Set<string>();
  let restarts = 0;
  let nonJsonEarlier = 0;
  try {
    const eras = options.eras ?? [options.era];
    const toolCount = tools.length;
    const planned = Array.from({ length: options.calls }, (_, k) => k).filter((k) => eraOfCall(k, toolCount, eras) === options.era);
    for (const k of planned) {
      const fuzzCase = generator.caseAt(k);
      const { report, latencyMs } = await runCase(connection, fuzzCase, {
        prepared,
        slackMs: options.slackMs,
        failOnInternal: options.failOnInternal,
        seenOutside,
      });
      const failures: Failure[] = [...report.failures];
      if (!connection.usable && !failures.some((f) => f.kind === "crash"))
        failures.push({ kind: "crash", detail: connection.exited ?? "stdin of the process closed" });
      const final = { ...report, failures, verdict: failures.length > 0 ? ("failed" as const) : report.verdict };
      record(tally, fuzzCase, final, latencyMs);
      if (failures.length > 0) {
        failed.push({ ...fuzzCase, era: options.era, failures, found: new Date().toISOString() });
      }
      if (report.code === "INTERNAL") internal.push({ fuzzCase, message: report.message ?? "" });
      if (!connection.usable) {
        await connection.close();
        nonJsonEarlier += connection.nonJsonLines.length;
        restarts += 1;
        ({ connection, tools } = await startServer(target, prepared, options.era));
      }
      if (options.onProgress && options.progressEvery && tally.calls % options.progressEvery === 0) options.onProgress(tally.calls, tally);
    }
    const after = await answersAfter(connection, prepared, options.slackMs);
    return {
      server: target.name,
      era: options.era,
      seed: options.seed,
      tools: tools.length,
      planned: planned.length,
      tally,
      maxLatencyMs: Math.max(0, ...tally.latencies),
      p50Ms: percentile(tally.latencies, 50),
      p99Ms: percentile(tally.latencies, 99),
      restarts,
      nonJsonLines: nonJsonEarlier + connection.nonJsonLines.length,
      answeredAfter: after.ok,
      afterDetail: after.detail,
      failed,
      internal,
      durationMs: performance.now() - started,
      dir,
    };
  } finally {
    await connection.close();
    if (!options.keepDir) await rm(dir, { recursive: true, force: true });
  }
}

/** Whether a summary shows any failure. */
export function summaryFailed(summary: ServerSummary): boolean {
  return summary.tally.failedCalls > 0 || summary.nonJsonLines > 0 || !summary.answeredAfter;
}
