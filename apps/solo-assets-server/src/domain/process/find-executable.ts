/**
 * Finds and probes the external tools the gate may use (ruff, mypy, uv, unshare, prlimit). A
 * tool counts as present when `<tool> --version` (or the given probe) exits 0 within a few
 * seconds — a pyenv shim for a tool that is not installed exists on PATH but fails.
 */
import { accessSync, constants } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
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

/** Whether `path` is executable. */
function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The interpreter a Python command runs (`sys.executable`) and the folder pip puts its scripts in. */
export interface PythonPaths {
  executable: string;
  scripts: string;
}

const pythons = new Map<string, Promise<PythonPaths | undefined>>();

/**
 * Where `python` (a name or a path) really is, asked once per process and PATH: version managers
 * (pyenv, asdf) put shims on PATH, shell scripts that pick a version and then start the real
 * program, and a shim costs more to start than a lint or a parse (0.1–0.3 s on an idle 2-core
 * machine, about 1 s at load 5), on every call. Undefined when Python cannot tell.
 */
export function pythonPaths(python: string, env: Readonly<Record<string, string>>): Promise<PythonPaths | undefined> {
  const key = `${python}\0${env.PATH ?? ""}`;
  let found = pythons.get(key);
  if (!found) {
    const script = "import sys, sysconfig; print(sys.executable); print(sysconfig.get_path('scripts'))";
    found = runProcess(python, ["-I", "-S", "-c", script], { env, timeoutMs: 30_000 }).then((r) => {
      const [exe = "", scripts = ""] = r.stdout
        .trim()
        .split("\n")
        .map((line) => line.trim());
      return r.code === 0 && exe.startsWith("/") ? { executable: exe, scripts } : undefined;
    });
    pythons.set(key, found);
  }
  return found;
}

/**
 * A tool found on PATH, past a version manager's shim: a shim (an executable in a folder named
 * `shims`) for a tool that the configured Python's version has in its scripts folder runs exactly
 * that program, so the gate runs it directly. Any other path is returned as it is, and so is a
 * shim whose tool that Python lacks (its probe fails as the shim would).
 */
export async function pastShim(path: string, python: string, env: Readonly<Record<string, string>>): Promise<string> {
  if (basename(dirname(path)) !== "shims") return path;
  const scripts = (await pythonPaths(python, env))?.scripts;
  const direct = scripts ? join(scripts, basename(path)) : undefined;
  return direct && executable(direct) ? direct : path;
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
