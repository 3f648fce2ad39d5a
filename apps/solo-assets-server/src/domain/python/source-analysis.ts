/**
 * What Python's own parser says about saved code (analyzer-source.ts): the library functions it
 * imports, its normalised fingerprint, its dangerous calls, its top-level statements and the
 * third-party packages it imports. Run with
 * the configured interpreter, isolated (`-I -S`) and with a minimal environment; nothing of the
 * code is executed.
 */
import { ToolError } from "@local-mcp/core";
import { z } from "zod";
import { pythonPaths } from "../process/find-executable.js";
import { runProcess, tail } from "../process/run-process.js";
import { ANALYZER_SOURCE } from "./analyzer-source.js";

const StatementSchema = z.object({
  start: z.number().int(),
  end: z.number().int(),
  kind: z.enum(["import", "future", "solo_lib", "code"]),
  names: z.array(z.string()),
});

const AnalysisSchema = z.union([
  z.object({
    ok: z.literal(true),
    library_imports: z.array(z.object({ line: z.number().int(), name: z.string() })),
    bad_library_imports: z.array(z.object({ line: z.number().int(), text: z.string() })),
    fingerprint: z.string(),
    dangerous: z.array(z.object({ line: z.number().int(), call: z.string() })),
    statements: z.array(StatementSchema),
    third_party_imports: z.array(z.object({ module: z.string(), line: z.number().int() })),
  }),
  z.object({ ok: z.literal(false) }),
]);

export type TopLevelStatement = z.infer<typeof StatementSchema>;
export type SourceAnalysis = z.infer<typeof AnalysisSchema>;
export type ParsedSource = Extract<SourceAnalysis, { ok: true }>;
export interface DangerousCall {
  line: number;
  call: string;
}

/** Analyses each source with `python` (one process for all, `env` the gate tools' environment); NOT_READY when it cannot run. */
export async function analyzeSources(
  python: string,
  env: Readonly<Record<string, string>>,
  sources: readonly string[],
  signal?: AbortSignal,
): Promise<SourceAnalysis[]> {
  if (sources.length === 0) return [];
  const result = await runProcess((await pythonPaths(python, env))?.executable ?? python, ["-I", "-S", "-c", ANALYZER_SOURCE], {
    env: { ...env, PYTHONIOENCODING: "utf-8" },
    input: JSON.stringify(sources),
    timeoutMs: 30_000,
    ...(signal ? { signal } : {}),
  });
  if (result.aborted && signal) throw signal.reason;
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    parsed = undefined;
  }
  const checked = z.array(AnalysisSchema).safeParse(parsed);
  if (result.spawnError || !checked.success || checked.data.length !== sources.length) {
    throw new ToolError(
      "NOT_READY",
      `Python (${python}) could not read the code: ${tail(result.spawnError ?? result.stderr, 300) || "no answer"}.`,
      {
        suggestion: "Install Python 3 (apt install python3) or set SOLO_PYTHON to a Python 3 interpreter.",
      },
    );
  }
  return checked.data;
}

export async function analyzeSource(
  python: string,
  env: Readonly<Record<string, string>>,
  source: string,
  signal?: AbortSignal,
): Promise<SourceAnalysis> {
  const [analysis] = await analyzeSources(python, env, [source], signal);
  return analysis ?? { ok: false };
}
