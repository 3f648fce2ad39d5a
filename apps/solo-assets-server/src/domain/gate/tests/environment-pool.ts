/**
 * Python environments for running saved functions' tests, pooled by the hash of the Python
 * version and the sorted dependency list (seed §3.4): `<envsDir>/<hash>/`. An environment that
 * exists is reused as is — no installer runs — which keeps a second save fast.
 *
 * Making one: `uv venv` + `uv pip install` when uv is on PATH; otherwise `python -m venv` and
 * pip. With a host pip that has `--python` (pip ≥ 22.3) the venv is made without pip of its own
 * (0.1 s instead of 3 s) and the host pip installs into it. pip gets options that make a
 * missing package fail fast (`--retries 1 --timeout 15`, no prompts), and the whole install
 * has a time limit (300 s by default) after which its process group is killed.
 *
 * Many processes may want the same environment at once. Each builds in a private folder and
 * renames it into place when complete; the rename is atomic, so an environment folder that
 * exists is always complete. A process that loses the race drops its copy and uses the winner's.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { silentLogger } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import { Lazy } from "../../lazy.js";
import { findOnPath, probeTool } from "../../process/find-executable.js";
import type { ProbedTool } from "../../process/find-executable.js";
import { runProcess, tail } from "../../process/run-process.js";
import { environmentHash } from "../../python/dependencies.js";

export interface PooledEnvironment {
  hash: string;
  dir: string;
  python: string;
  dependencies: string[];
  reused: boolean;
  installer: string;
  installMs: number;
}

/** The install failed or ran out of time; `log` is the installer's output. */
export class EnvironmentInstallError extends Error {
  override readonly name = "EnvironmentInstallError";
  constructor(
    message: string,
    readonly log: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/**
 * Python (or the configured installer) cannot run at all, or cannot make a virtual environment:
 * not a problem of the function's dependencies, so the test step reports an error with this code
 * and suggestion, and the function is stored as unverified.
 */
export class ToolchainUnavailableError extends Error {
  override readonly name = "ToolchainUnavailableError";
  constructor(
    message: string,
    readonly code: "PYTHON_UNAVAILABLE" | "VENV_UNAVAILABLE" | "INSTALLER_UNAVAILABLE",
    readonly suggestion: string,
  ) {
    super(message);
  }
}

const VENV_SUGGESTION =
  "Install python3-venv (apt install python3-venv) — or uv (pip install uv, or see docs.astral.sh/uv), which makes environments without it — then save again.";

/** Making the venv itself failed: no dependency is involved yet, so the toolchain is at fault. */
function venvUnavailable(python: string, error: EnvironmentInstallError): ToolchainUnavailableError {
  const output = error.log
    .split("\n")
    .filter((line) => !line.startsWith("$ ") && line.trim() !== "")
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return new ToolchainUnavailableError(
    `Python (${python}) cannot make a virtual environment${output ? `: ${output.slice(-400)}` : ` (${error.message})`}`,
    "VENV_UNAVAILABLE",
    VENV_SUGGESTION,
  );
}

export interface EnvironmentPoolOptions {
  envsDir: string;
  /** The Python that makes environments (SOLO_PYTHON). */
  python: string;
  installer: "auto" | "uv" | "pip";
  installTimeoutMs: number;
  /** The tools' environment (PATH, HOME, pip's settings; no secrets). */
  env: Readonly<Record<string, string>>;
  logger?: Logger;
}

interface Toolchain {
  pythonTag: string;
  installer: "uv" | "pip";
  uv?: ProbedTool;
  /** Host pip with --python support. */
  hostPip: boolean;
}

const READY_MARKER = ".solo-env.json";
const PIP_OPTIONS = ["--disable-pip-version-check", "--no-input", "--retries", "1", "--timeout", "15", "--progress-bar", "off"];

function venvPython(dir: string): string {
  return process.platform === "win32" ? join(dir, "Scripts", "python.exe") : join(dir, "bin", "python");
}

/** An environment being built, and how many saves are waiting for it. */
interface SharedBuild {
  build: Promise<PooledEnvironment>;
  controller: AbortController;
  waiting: number;
}

/**
 * Waits for a shared build under one caller's signal: at its abort the caller stops waiting (and
 * rejects with its reason); the build itself is aborted only when no caller is left waiting.
 */
function waitForBuild(shared: SharedBuild, signal: AbortSignal): Promise<PooledEnvironment> {
  return new Promise((resolve, reject) => {
    let waiting = true;
    const leave = () => {
      if (!waiting) return false;
      waiting = false;
      signal.removeEventListener("abort", onAbort);
      shared.waiting -= 1;
      return true;
    };
    const onAbort = () => {
      if (!leave()) return;
      if (shared.waiting === 0) shared.controller.abort(signal.reason);
      reject(signal.reason);
    };
    shared.waiting += 1;
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    shared.build.then(
      (environment) => {
        if (leave()) resolve(environment);
      },
      (error: unknown) => {
        if (leave()) reject(error);
      },
    );
  });
}

export class EnvironmentPool {
  private readonly logger: Logger;
  private readonly building = new Map<string, SharedBuild>();
  private readonly toolchain: Lazy<Toolchain>;

  constructor(private readonly options: EnvironmentPoolOptions) {
    this.logger = options.logger ?? silentLogger;
    this.toolchain = new Lazy(() => this.detectToolchain());
  }

  /** The environment for these (normalised) dependencies, made when missing. */
  async acquire(
    dependencies: readonly string[],
    options: { signal: AbortSignal; progress?: (message: string) => void },
  ): Promise<PooledEnvironment> {
    const tools = await this.toolchain.get();
    const hash = environmentHash(tools.pythonTag, dependencies);
    const dir = join(this.options.envsDir, hash);
    if (existsSync(join(dir, READY_MARKER))) {
      return {
        hash,
        dir,
        python: venvPython(dir),
        dependencies: [...dependencies],
        reused: true,
        installer: tools.installer,
        installMs: 0,
      };
    }
    let shared = this.building.get(hash);
    // A build is shared by every save that needs this environment meanwhile, so no one caller's
    // signal is its signal: it stops only once every caller waiting for it has gone (then a new
    // caller starts a new one).
    if (!shared || shared.controller.signal.aborted) {
      const controller = new AbortController();
      const build = this.build(tools, hash, dir, dependencies, {
        signal: controller.signal,
        ...(options.progress ? { progress: options.progress } : {}),
      });
      const started: SharedBuild = { build, controller, waiting: 0 };
      started.build = build.finally(() => {
        if (this.building.get(hash) === started) this.building.delete(hash);
      });
      this.building.set(hash, started);
      shared = started;
    }
    return waitForBuild(shared, options.signal);
  }

  private async detectToolchain(): Promise<Toolchain> {
    const env = this.options.env;
    const version = await runProcess(this.options.python, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], {
      env,
      timeoutMs: 15_000,
    });
    if (version.code !== 0) {
      throw new ToolchainUnavailableError(
        `Python (${this.options.python}) could not be started: ${(version.spawnError ?? version.stderr).trim().slice(0, 300)}.`,
        "PYTHON_UNAVAILABLE",
        "Install Python 3 with venv (Debian/Ubuntu: apt install python3 python3-venv; macOS: brew install python) or set SOLO_PYTHON to a Python 3 interpreter, then save again.",
      );
    }
    const pythonTag = `cpython-${version.stdout.trim()}`;
    const uvPath = this.options.installer === "pip" ? undefined : findOnPath("uv", env.PATH);
    const uv = uvPath ? await probeTool(uvPath, [], ["--version"], env) : undefined;
    if (this.options.installer === "uv" && !uv) {
      throw new ToolchainUnavailableError(
        "SOLO_INSTALLER=uv but uv is not on PATH.",
        "INSTALLER_UNAVAILABLE",
        "Install uv (pip install uv, or see docs.astral.sh/uv) or set SOLO_INSTALLER=auto.",
      );
    }
    if (uv) return { pythonTag, installer: "uv", uv, hostPip: false };
    const pip = await runProcess(this.options.python, ["-m", "pip", "--version"], { env, timeoutMs: 15_000 });
    const [major = 0, minor = 0] = (/^pip (\d+)\.(\d+)/.exec(pip.stdout)?.slice(1) ?? []).map(Number);
    return { pythonTag, installer: "pip", hostPip: pip.code === 0 && (major > 22 || (major === 22 && minor >= 3)) };
  }

  private async build(
    tools: Toolchain,
    hash: string,
    dir: string,
    dependencies: readonly string[],
    options: { signal: AbortSignal; progress?: (message: string) => void },
  ): Promise<PooledEnvironment> {
    const started = Date.now();
    const staging = join(this.options.envsDir, `.building-${hash}-${process.pid}-${randomBytes(4).toString("hex")}`);
    await mkdir(this.options.envsDir, { recursive: true });
    const log: string[] = [];
    const deadline = started + this.options.installTimeoutMs;
    const say = (message: string) => {
      this.logger.info(message, { environment: hash });
      options.progress?.(message);
    };
    const step = async (what: string, command: string, args: string[]) => {
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new EnvironmentInstallError(
          `Installing the environment took longer than ${this.options.installTimeoutMs} ms.`,
          log.join("\n"),
          true,
        );
      log.push(`$ ${[command, ...args].join(" ")}`);
      const result = await runProcess(command, args, {
        env: this.options.env,
        timeoutMs: remaining,
        signal: options.signal,
        onStdoutLine: (line) => {
          log.push(line);
          if (/^(Collecting|Downloading|Installing|Successfully|Resolved|Prepared|Installed)/.test(line.trim())) say(line.trim());
        },
        onStderrLine: (line) => log.push(line),
      });
      if (result.aborted) throw options.signal.reason;
      if (result.timedOut) {
        throw new EnvironmentInstallError(
          `Installing the environment took longer than ${this.options.installTimeoutMs} ms and was stopped.`,
          log.join("\n"),
          true,
        );
      }
      if (result.code !== 0) {
        throw new EnvironmentInstallError(
          `${what} failed (exit ${String(result.code)})${result.spawnError ? `: ${result.spawnError}` : ""}.`,
          log.join("\n"),
          false,
        );
      }
    };
    try {
      const needPip = dependencies.length > 0 && !tools.hostPip && tools.installer === "pip";
      say(`creating a Python environment for ${dependencies.length === 0 ? "no dependencies" : dependencies.join(", ")}`);
      try {
        if (tools.uv) {
          await step("uv venv", tools.uv.command, ["venv", "--quiet", "--python", this.options.python, staging]);
        } else {
          await step("python -m venv", this.options.python, ["-m", "venv", ...(needPip ? [] : ["--without-pip"]), staging]);
        }
      } catch (error) {
        if (error instanceof EnvironmentInstallError && !error.timedOut) throw venvUnavailable(this.options.python, error);
        throw error;
      }
      if (dependencies.length > 0) {
        say(`installing ${dependencies.join(", ")}`);
        const python = venvPython(staging);
        if (tools.uv) await step("uv pip install", tools.uv.command, ["pip", "install", "--python", python, ...dependencies]);
        else if (tools.hostPip)
          await step("pip install", this.options.python, ["-m", "pip", "--python", python, "install", ...PIP_OPTIONS, ...dependencies]);
        else await step("pip install", python, ["-m", "pip", "install", ...PIP_OPTIONS, ...dependencies]);
      }
      const marker = { python: tools.pythonTag, dependencies, installer: tools.installer, created_at: new Date().toISOString() };
      await writeFile(join(staging, READY_MARKER), JSON.stringify(marker, null, 2));
      try {
        await rename(staging, dir);
      } catch (error) {
        // Another process finished the same environment first: use it.
        if (!existsSync(join(dir, READY_MARKER))) throw error;
        await rm(staging, { recursive: true, force: true });
      }
      const installMs = Date.now() - started;
      say(`environment ready in ${(installMs / 1000).toFixed(1)} s`);
      return { hash, dir, python: venvPython(dir), dependencies: [...dependencies], reused: false, installer: tools.installer, installMs };
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      if (error instanceof EnvironmentInstallError) {
        throw new EnvironmentInstallError(error.message, tail(error.log, 6000), error.timedOut);
      }
      throw error;
    }
  }
}
