/**
 * Runs a saved function's tests the way untrusted code should run: a subprocess in its own
 * process group (killed as a whole at the time limit), a temporary working directory, an
 * environment built from scratch (no API keys, tokens or anything else of ours), an
 * address-space and CPU limit (`prlimit`, else the harness sets them itself), and no network
 * where the OS allows it (`unshare -rn`: a user namespace with only a downed loopback device,
 * so every connection fails with "Network is unreachable").
 */
import { join } from "node:path";
import { Lazy } from "../../lazy.js";
import { findOnPath } from "../../process/find-executable.js";
import { runProcess } from "../../process/run-process.js";
import type { ProcessResult } from "../../process/run-process.js";

export interface SandboxOptions {
  networkIsolation: "auto" | "required" | "off";
  memoryMb: number;
  timeoutMs: number;
  /** Used only to find unshare and prlimit on PATH. */
  toolEnv: Readonly<Record<string, string>>;
}

export interface SandboxCapabilities {
  /** `unshare -rn` works here. */
  unshare: string | undefined;
  prlimit: string | undefined;
}

export interface SandboxRun extends ProcessResult {
  networkIsolated: boolean;
}

/** Limits for the harness to set itself, in its spec's `limits`. */
export interface HarnessLimits {
  memory_bytes: number;
  cpu_seconds: number;
}

/** A fresh environment for saved code: nothing is copied from ours. */
export function sandboxEnvironment(workDir: string, venvDir: string): Record<string, string> {
  const bin = process.platform === "win32" ? join(venvDir, "Scripts") : join(venvDir, "bin");
  return {
    PATH: [bin, "/usr/local/bin", "/usr/bin", "/bin"].join(process.platform === "win32" ? ";" : ":"),
    HOME: workDir,
    TMPDIR: workDir,
    VIRTUAL_ENV: venvDir,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    PYTHONDONTWRITEBYTECODE: "1",
    PYTHONIOENCODING: "utf-8",
    PYTHONHASHSEED: "0",
    PYTHONNOUSERSITE: "1",
    OMP_NUM_THREADS: "1",
    OPENBLAS_NUM_THREADS: "1",
    MKL_NUM_THREADS: "1",
  };
}

export class Sandbox {
  private readonly capabilities: Lazy<SandboxCapabilities>;

  constructor(readonly options: SandboxOptions) {
    this.capabilities = new Lazy(() => this.detect());
  }

  describe(): Promise<SandboxCapabilities> {
    return this.capabilities.get();
  }

  private get memoryBytes(): number {
    return this.options.memoryMb * 1024 * 1024;
  }

  private get cpuSeconds(): number {
    return Math.ceil(this.options.timeoutMs / 1000) + 5;
  }

  /** The limits the harness must apply itself: set when prlimit cannot do it from outside. */
  async harnessLimits(): Promise<HarnessLimits | undefined> {
    const caps = await this.capabilities.get();
    return caps.prlimit ? undefined : { memory_bytes: this.memoryBytes, cpu_seconds: this.cpuSeconds };
  }

  private async detect(): Promise<SandboxCapabilities> {
    const env = this.options.toolEnv;
    const unshare = this.options.networkIsolation === "off" ? undefined : findOnPath("unshare", env.PATH);
    const prlimit = findOnPath("prlimit", env.PATH);
    const works = unshare ? (await runProcess(unshare, ["-rn", "true"], { env, timeoutMs: 10_000 })).code === 0 : false;
    const limits = prlimit ? (await runProcess(prlimit, ["--version"], { env, timeoutMs: 10_000 })).code === 0 : false;
    return { unshare: works ? unshare : undefined, prlimit: limits ? prlimit : undefined };
  }

  /** Runs `python args…` in `workDir`; the caller reads what it wrote there. */
  async run(python: string, args: readonly string[], options: { workDir: string; venvDir: string; signal: AbortSignal }): Promise<SandboxRun> {
    const caps = await this.capabilities.get();
    if (this.options.networkIsolation === "required" && !caps.unshare) {
      throw new Error("SOLO_NETWORK_ISOLATION=required, but `unshare -rn` does not work on this machine.");
    }
    const command: string[] = [];
    if (caps.unshare) command.push(caps.unshare, "-rn");
    if (caps.prlimit) command.push(caps.prlimit, `--as=${this.memoryBytes}`, `--cpu=${this.cpuSeconds}`);
    command.push(python, ...args);
    const [program = python, ...rest] = command;
    const result = await runProcess(program, rest, {
      cwd: options.workDir,
      env: sandboxEnvironment(options.workDir, options.venvDir),
      timeoutMs: this.options.timeoutMs,
      signal: options.signal,
      maxOutputBytes: 64 * 1024,
    });
    return { ...result, networkIsolated: caps.unshare !== undefined };
  }
}
