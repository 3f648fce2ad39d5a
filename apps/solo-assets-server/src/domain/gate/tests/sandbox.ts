/**
 * Runs a saved function's tests the way untrusted code should run: a subprocess in its own
 * process group (killed as a whole at the time limit), a temporary working directory, an
 * environment built from scratch (no API keys, tokens or anything else of ours), an
 * address-space and CPU limit (`prlimit`, else the harness sets them itself), and — where the OS
 * allows unprivileged namespaces — `unshare -rnm --pid --fork --kill-child`:
 *   - no network: a user namespace with only a downed loopback device, so every connection fails
 *     with "Network is unreachable";
 *   - the library's own files hidden: in a private mount namespace the folder holding the
 *     database is covered by an empty tmpfs into which everything else of that folder is bound
 *     back — the database, the settings, the saved API key (`<db>.gemini-key`) and the process
 *     records are not there (and files the code writes to that folder go to the tmpfs);
 *   - a private PID namespace whose first process is the test run: when it dies (at the time
 *     limit the whole group gets SIGKILL) the kernel kills every process left in the namespace,
 *     a child that started its own session included;
 *   - other processes' environments stay unreadable (`/proc/<pid>/environ` of a process outside
 *     the user namespace is refused).
 * Where only `unshare -rn` works, the network is still cut; where neither works, tests run with
 * network and as the user (the report says `network_isolated: false`).
 */
import { lstat, readdir, readlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { Lazy } from "../../lazy.js";
import { findOnPath } from "../../process/find-executable.js";
import { runProcess } from "../../process/run-process.js";
import type { ProcessResult } from "../../process/run-process.js";

export interface SandboxOptions {
  networkIsolation: "auto" | "required" | "off";
  memoryMb: number;
  timeoutMs: number;
  /** Used only to find unshare, prlimit, sh and mount on PATH. */
  toolEnv: Readonly<Record<string, string>>;
  /**
   * Files saved code must not see: the entries of `dir` for which `matches(name)` holds (the
   * library's database, settings, API key and process records). Hidden where namespaces work.
   */
  privateFiles?: { dir: string; matches: (name: string) => boolean };
}

export interface SandboxCapabilities {
  /** `unshare -rn` works here. */
  unshare: string | undefined;
  prlimit: string | undefined;
  /**
   * `unshare -rnm --pid --fork --kill-child` with a tmpfs mount inside works here: the library's
   * files are hidden and the whole process tree dies with the run. The shell and mount binaries.
   */
  namespaces: { sh: string; mount: string } | undefined;
}

/** The namespaces of a test run: user (root mapped to us), network, mount, PID. */
const NAMESPACE_FLAGS = ["-rnm", "--pid", "--fork", "--kill-child"] as const;

/** Quotes a value for sh. */
function shellQuote(value: string): string {
  return `'${value.split("'").join("'\\''")}'`;
}

function contains(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
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
    let namespaces: SandboxCapabilities["namespaces"];
    const sh = findOnPath("sh", env.PATH);
    const mount = findOnPath("mount", env.PATH);
    if (works && unshare && sh && mount) {
      // The same steps a run takes: the namespaces, then a tmpfs over a folder (here the temp folder).
      const probe = await runProcess(unshare, [...NAMESPACE_FLAGS, "--", sh, "-c", `${shellQuote(mount)} -t tmpfs -o size=64k solo-probe ${shellQuote(tmpdir())}`], {
        env,
        timeoutMs: 10_000,
      });
      if (probe.code === 0) namespaces = { sh, mount };
    }
    return { unshare: works ? unshare : undefined, prlimit: limits ? prlimit : undefined, namespaces };
  }

  /**
   * The shell script that, inside the namespaces, covers the private files' folder with a tmpfs,
   * binds every other entry of that folder back, then runs the command it is given. Entries are
   * listed now; the code cannot see what appears there later.
   */
  private async hidingScript(mount: string, workDir: string, keep: readonly string[]): Promise<string> {
    const lines = ["set -e"];
    const hidden = this.options.privateFiles;
    const entries = hidden ? await readdir(hidden.dir, { withFileTypes: true }).catch(() => undefined) : undefined;
    if (hidden && entries && hidden.dir !== "/") {
      const dir = hidden.dir;
      const q = (name: string) => shellQuote(join(dir, name));
      // `cd` first: relative sources then name the covered folder's entries, not the tmpfs's.
      lines.push(`cd ${shellQuote(dir)}`, `${shellQuote(mount)} -t tmpfs -o mode=0755,size=1m solo-sandbox ${shellQuote(dir)}`);
      for (const entry of entries) {
        const path = join(dir, entry.name);
        const needed = keep.some((k) => contains(path, k));
        if (hidden.matches(entry.name) && !needed) continue;
        const source = shellQuote(`./${entry.name}`);
        const info = await lstat(path).catch(() => undefined);
        if (info === undefined) continue;
        if (info.isSymbolicLink()) {
          const target = await readlink(path).catch(() => undefined);
          if (target !== undefined) lines.push(`ln -s -- ${shellQuote(target)} ${q(entry.name)}`);
        } else if (info.isDirectory()) {
          lines.push(`mkdir ${q(entry.name)}`, `${shellQuote(mount)} -c --rbind ${source} ${q(entry.name)}`);
        } else {
          lines.push(`: > ${q(entry.name)}`, `${shellQuote(mount)} -c --bind ${source} ${q(entry.name)}`);
        }
      }
    }
    lines.push(`cd ${shellQuote(workDir)}`, 'exec "$@"');
    return lines.join("\n");
  }

  /** Runs `python args…` in `workDir`; the caller reads what it wrote there. */
  async run(python: string, args: readonly string[], options: { workDir: string; venvDir: string; signal: AbortSignal }): Promise<SandboxRun> {
    const caps = await this.capabilities.get();
    if (this.options.networkIsolation === "required" && !caps.unshare) {
      throw new Error("SOLO_NETWORK_ISOLATION=required, but `unshare -rn` does not work on this machine.");
    }
    const command: string[] = [];
    if (caps.unshare && caps.namespaces) {
      const script = await this.hidingScript(caps.namespaces.mount, options.workDir, [options.workDir, options.venvDir]);
      command.push(caps.unshare, ...NAMESPACE_FLAGS, "--", caps.namespaces.sh, "-c", script, "solo-sandbox");
    } else if (caps.unshare) {
      command.push(caps.unshare, "-rn");
    }
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
