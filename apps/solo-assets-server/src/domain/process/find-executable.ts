/**
 * Finds and probes the external tools the gate may use (ruff, mypy, uv, unshare, prlimit). A
 * tool counts as present when `<tool> --version` (or the given probe) exits 0 within a few
 * seconds — a pyenv shim for a tool that is not installed exists on PATH but fails.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { runProcess } from "./run-process.js";

/** The first executable `name` on `pathValue` (the PATH variable), or undefined. */
export function findOnPath(name: string, pathValue: string | undefined): string | undefined {
  for (const dir of (pathValue ?? "").split(delimiter)) {
    if (dir.length === 0) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

export interface ProbedTool {
  /** The command to run (absolute path when found on PATH). */
  command: string;
  /** Arguments that come before the tool's own (e.g. ["-m", "mypy"]). */
  prefix: string[];
  /** First line of the probe's output, e.g. "ruff 0.16.9". */
  version: string;
}

/** Runs the probe; returns the tool when it answers with exit code 0. */
export async function probeTool(
  command: string,
  prefix: readonly string[],
  probeArgs: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<ProbedTool | undefined> {
  const result = await runProcess(command, [...prefix, ...probeArgs], { env, timeoutMs: 15_000 });
  if (result.code !== 0) return undefined;
  const version = `${result.stdout}\n${result.stderr}`.trim().split("\n")[0]?.trim() ?? "";
  return { command, prefix: [...prefix], version };
}
