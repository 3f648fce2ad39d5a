/**
 * A Python virtual environment that a command makes for itself and keeps: one per pinned
 * requirements file, under the user's cache directory, keyed by the hash of the Python version and
 * the file's contents (`<cache>/local-mcp/python-envs/<hash>/`). A second run with the same pins
 * reuses it as is.
 *
 * Making one: `uv venv` + `uv pip install` when uv is on PATH; otherwise `python -m venv
 * --system-site-packages` and pip (the host's with `--python` when it is 22.3 or newer, into a venv
 * made without pip), so packages the system already has at the pinned versions are used, not
 * downloaded again. The environment is built in a private folder, a marker file is
 * written last, and the folder is renamed into place: a folder without its marker (an interrupted
 * build) is never reused.
 *
 * solo-assets-server's EnvironmentPool (apps/solo-assets-server/src/domain/gate/tests/environment-pool.ts)
 * pools short-lived per-function environments with shared concurrent builds; this is the simpler
 * case of one long-lived environment per shipped requirements file, whose packages may come from
 * the system's site-packages.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { ToolError } from "../errors.js";

export interface PythonEnvOptions {
  /** The pinned requirements file (pip's format). */
  requirementsFile: string;
  /** The Python that makes the environment; default $PYTHON, else python3 (python on Windows). */
  python?: string;
  /** Oldest Python accepted; default 3.10. */
  minVersion?: readonly [number, number];
  /** Where environments live; default userCacheDir()/local-mcp/python-envs. */
  envsDir?: string;
  /** "auto" (default): uv when on PATH, else venv + pip. */
  installer?: "auto" | "uv" | "pip";
  /** The environment (PYTHON, PATH, HOME, XDG_CACHE_HOME, pip's settings), read by the caller's entry module. */
  env: NodeJS.ProcessEnv;
  /** Progress lines (what is being done, pip's Collecting/Installing lines). */
  progress?: (line: string) => void;
}

export interface PythonEnv {
  /** The environment's python executable. */
  python: string;
  dir: string;
  hash: string;
  /** The version of the Python it was made from, e.g. "3.11". */
  pythonVersion: string;
  installer: "uv" | "pip";
  reused: boolean;
}

const MARKER = ".local-mcp-env.json";
const PIP_OPTIONS = ["--disable-pip-version-check", "--no-input", "--progress-bar", "off"];

/** The user's cache directory: $XDG_CACHE_HOME, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows, else ~/.cache. */
export function userCacheDir(env: NodeJS.ProcessEnv): string {
  if (env.XDG_CACHE_HOME?.trim()) return env.XDG_CACHE_HOME.trim();
  const home = env.HOME?.trim() || homedir();
  if (process.platform === "darwin") return join(home, "Library", "Caches");
  if (process.platform === "win32") return env.LOCALAPPDATA?.trim() || join(home, "AppData", "Local");
  return join(home, ".cache");
}

function venvPython(dir: string): string {
  return process.platform === "win32" ? join(dir, "Scripts", "python.exe") : join(dir, "bin", "python");
}

interface RunResult {
  code: number | null;
  output: string[];
  spawnError?: string;
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Promise<RunResult> {
  return new Promise((resolve) => {
    const output: string[] = [];
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const collect = (stream: NodeJS.ReadableStream) => {
      let pending = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        pending += chunk;
        const lines = pending.split(/\r?\n/);
        pending = lines.pop() ?? "";
        for (const line of lines) {
          output.push(line);
          onLine?.(line);
        }
      });
      stream.on("end", () => {
        if (pending) output.push(pending);
      });
    };
    collect(child.stdout);
    collect(child.stderr);
    child.on("error", (error) => resolve({ code: null, output, spawnError: error.message }));
    child.on("close", (code) => resolve({ code, output }));
  });
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const extensions = process.platform === "win32" ? [".exe", ".cmd", ""] : [""];
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const extension of extensions) {
      const candidate = join(dir, `${name}${extension}`);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

const INSTALL_PYTHON =
  "Install Python 3 with venv (Debian/Ubuntu: apt install python3 python3-venv; macOS: brew install python; or uv) or set PYTHON to a Python 3 interpreter.";

/** The Python to use and its version; a coded NOT_READY error naming what to install when it is missing or too old. */
export async function findPython(
  options: Pick<PythonEnvOptions, "python" | "minVersion" | "env">,
): Promise<{ python: string; version: string }> {
  const env = options.env;
  const python = options.python ?? (env.PYTHON?.trim() || (process.platform === "win32" ? "python" : "python3"));
  const [minMajor, minMinor] = options.minVersion ?? [3, 10];
  const probe = await run(python, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], env);
  const version = probe.code === 0 ? (probe.output[0] ?? "").trim() : "";
  const match = /^(\d+)\.(\d+)$/.exec(version);
  if (!match) {
    const why = probe.spawnError ?? probe.output.join(" ").trim().slice(-200);
    throw new ToolError("NOT_READY", `Python (${python}) could not be started${why ? `: ${why}` : ""}.`, { suggestion: INSTALL_PYTHON });
  }
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major < minMajor || (major === minMajor && minor < minMinor)) {
    throw new ToolError("NOT_READY", `Python ${version} (${python}) is too old: ${minMajor}.${minMinor} or newer is needed.`, {
      suggestion: INSTALL_PYTHON,
    });
  }
  return { python, version };
}

/** The environment for the pinned requirements, made when missing (see the file's comment). */
export async function ensurePythonEnv(options: PythonEnvOptions): Promise<PythonEnv> {
  const env = options.env;
  const say = options.progress ?? (() => undefined);
  const { python, version } = await findPython(options);
  let requirements: string;
  try {
    requirements = readFileSync(options.requirementsFile, "utf8");
  } catch (error) {
    throw new ToolError("NOT_FOUND", `The requirements file ${options.requirementsFile} cannot be read: ${(error as Error).message}`);
  }
  const hash = createHash("sha256").update(`cpython-${version}\n${requirements}`).digest("hex").slice(0, 16);
  const envsDir = options.envsDir ?? join(userCacheDir(env), "local-mcp", "python-envs");
  const dir = join(envsDir, hash);
  const installer = options.installer ?? "auto";
  const uv = installer === "pip" ? undefined : findOnPath("uv", env);
  if (installer === "uv" && !uv) {
    throw new ToolError("NOT_READY", "uv is not on PATH.", {
      suggestion: "Install uv (docs.astral.sh/uv) or let pip make the environment.",
    });
  }
  const kind = uv ? "uv" : "pip";
  if (existsSync(join(dir, MARKER))) return { python: venvPython(dir), dir, hash, pythonVersion: version, installer: kind, reused: true };

  await mkdir(envsDir, { recursive: true });
  const staging = join(envsDir, `.building-${hash}-${process.pid}-${randomBytes(4).toString("hex")}`);
  const step = async (what: string, command: string, args: string[]) => {
    const result = await run(command, args, env, (line) => {
      if (/^\s*(Collecting|Downloading|Installing|Successfully|Resolved|Prepared|Installed)/.test(line)) say(line.trim());
    });
    if (result.code !== 0) {
      const lines = result.output.filter((l) => l.trim() !== "").slice(-8);
      throw new ToolError(
        "UPSTREAM_ERROR",
        `${what} failed (${result.spawnError ?? `exit ${String(result.code)}`})${lines.length > 0 ? `: ${lines.join(" | ")}` : ""}`,
        {
          suggestion: `Check that the packages in ${options.requirementsFile} can be installed here (network or pip's index), then run again.`,
          details: { log: lines },
        },
      );
    }
  };
  try {
    say(`making a Python ${version} environment in ${dir}`);
    if (uv) {
      await step("uv venv", uv, ["venv", "--quiet", "--system-site-packages", "--python", python, staging]);
      say(`installing ${options.requirementsFile}`);
      await step("uv pip install", uv, ["pip", "install", "--python", venvPython(staging), "-r", options.requirementsFile]);
    } else {
      // A host pip with --python (pip 22.3 or newer) installs into a venv made without pip of its own (seconds less).
      const pip = await run(python, ["-m", "pip", "--version"], env);
      const [major = 0, minor = 0] = (/^pip (\d+)\.(\d+)/.exec(pip.output[0] ?? "")?.slice(1) ?? []).map(Number);
      const hostPip = pip.code === 0 && (major > 22 || (major === 22 && minor >= 3));
      await step("python -m venv", python, ["-m", "venv", "--system-site-packages", ...(hostPip ? ["--without-pip"] : []), staging]);
      say(`installing ${options.requirementsFile}`);
      const install = ["install", ...PIP_OPTIONS, "-r", options.requirementsFile];
      if (hostPip) await step("pip install", python, ["-m", "pip", "--python", venvPython(staging), ...install]);
      else await step("pip install", venvPython(staging), ["-m", "pip", ...install]);
    }
    const marker = { python: version, requirements: options.requirementsFile, installer: kind, created_at: new Date().toISOString() };
    await writeFile(join(staging, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
    try {
      await rename(staging, dir);
    } catch (error) {
      // Another process finished the same environment first (or a half-made one without its marker is in the way).
      if (existsSync(join(dir, MARKER))) await rm(staging, { recursive: true, force: true });
      else {
        await rm(dir, { recursive: true, force: true });
        await rename(staging, dir).catch(() => {
          throw error;
        });
      }
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  say(`Python environment ready: ${dir}`);
  return { python: venvPython(dir), dir, hash, pythonVersion: version, installer: kind, reused: false };
}
