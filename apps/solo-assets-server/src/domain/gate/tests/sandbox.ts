/**
 * Runs a saved function's test probes the way untrusted code should run. Saved code is not
 * trusted (issue #13): it must not read or write the user's files, reach the network, outlive
 * its run or the server, or exceed its memory and process bounds.
 *
 * Linux: bubblewrap (`bwrap`, Debian's `bubblewrap`), a maintained sandbox:
 *   - a new root with only what Python needs, read-only: `/usr`, `/bin`, `/lib*` (links or
 *     binds as on the host), the dynamic linker's cache, the interpreter's own prefix when it
 *     lives elsewhere (e.g. `~/.pyenv/versions/3.11.7` — that folder only, not the home) and the
 *     pooled environment; no `/etc/passwd`, no home, no library, database, settings or key, no
 *     server `dist/`;
 *   - the run's inputs (function, harness, the probes without expected values) read-only, a
 *     private size-bounded `/tmp`, a fresh `/proc` and a minimal `/dev`;
 *   - new PID, network (no interfaces but a downed loopback), IPC, UTS and cgroup namespaces
 *     (`--unshare-all` when the server runs unprivileged: a user namespace too); every
 *     capability dropped; `--new-session` (no terminal injection); `--die-with-parent`: the
 *     sandbox's init is killed when bwrap or the server dies, a `kill -9` of the server included,
 *     and with it every process of its PID namespace;
 *   - `--clearenv`, then a minimal environment;
 *   - when the server runs as root: the code runs as `nobody` (setpriv, no capabilities, no new
 *     privileges) — root without capabilities would still own the host's root-owned files and
 *     /proc/sys entries.
 * macOS: `sandbox-exec` with a deny-by-default profile (reads of the system, the interpreter and
 * the environment; writes only to the run's temporary folder; no network). Untested here.
 *
 * Without either, tests are NOT run (the function is stored `unverified`, the report says how
 * to install bubblewrap) unless `SOLO_SANDBOX=weak` allows the old fallback: `unshare -rnm --pid
 * --fork --kill-child` where unprivileged namespaces work (no network, the library's files
 * hidden, the PID namespace killed with the run), else a plain subprocess as the user. Its
 * weaker guarantees are in docs/solo-assets.md: the code can read and write what the user can.
 *
 * Memory and processes are bounded for the whole run (resource-limits.ts); prlimit also bounds
 * each process's address space and CPU time.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { chmod, lstat, readdir, readlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { Lazy } from "../../lazy.js";
import { findOnPath } from "../../process/find-executable.js";
import { runProcess } from "../../process/run-process.js";
import type { ProcessResult } from "../../process/run-process.js";
import { detectResourceLimiter } from "./resource-limits.js";
import type { LimiterKind, ResourceLimiter } from "./resource-limits.js";

export type SandboxMode = "strict" | "weak";
export type SandboxKind = "bwrap" | "sandbox-exec" | "unshare" | "process";

export interface SandboxOptions {
  /** strict: bwrap or sandbox-exec, else no tests; weak: fall back to unshare or a plain process. */
  mode: SandboxMode;
  memoryMb: number;
  maxProcesses: number;
  timeoutMs: number;
  /** Used only to find bwrap, unshare, prlimit, sh, setpriv on PATH. */
  toolEnv: Readonly<Record<string, string>>;
  /**
   * The weak fallback's hiding: the entries of `dir` for which `matches(name)` holds (the
   * library's database, settings, API key and process records). The strong sandboxes show
   * nothing of the library's folder at all.
   */
  privateFiles?: { dir: string; matches: (name: string) => boolean };
}

export interface SandboxCapabilities {
  /** The sandbox tests run in; undefined when none may be used (tests are not run). */
  kind: SandboxKind | undefined;
  /** Why no strong sandbox is available here, with what to install. */
  unavailable?: string;
  networkIsolated: boolean;
  /** What bounds memory and processes: the whole run (cgroups, systemd-run) or each process (prlimit). */
  limits: LimiterKind;
  prlimit: string | undefined;
}

interface Detected extends SandboxCapabilities {
  bwrap?: { command: string; setpriv: string | undefined };
  sandboxExec?: string;
  /** The weak fallback: `unshare -rn` works; with `namespaces`, the full set with a tmpfs. */
  unshare?: string;
  namespaces?: { sh: string; mount: string };
  limiter: ResourceLimiter;
}

/** The sandbox could not be used: tests are not run. */
export class SandboxUnavailableError extends Error {
  override readonly name = "SandboxUnavailableError";
}

export interface SandboxRun extends ProcessResult {
  kind: SandboxKind;
  networkIsolated: boolean;
  limits: LimiterKind;
  /** The kernel killed a process of the run for memory (when the limiter can tell). */
  oomKilled: boolean;
}

/** Limits for the harness to set itself, in its spec's `limits`. */
export interface HarnessLimits {
  memory_bytes: number;
  cpu_seconds: number;
}

/** Files of the run's inputs readable (0644) and their folders (the `solo_lib` package) traversable (0755), below `dir`. */
async function makeReadable(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      await chmod(path, 0o755);
      await makeReadable(path);
    } else await chmod(path, 0o644);
  }
}

/** Where the run's inputs appear inside bwrap. */
const INSIDE_WORK = "/sandbox";
const UNSHARE_FLAGS = ["-rnm", "--pid", "--fork", "--kill-child"] as const;
const INSTALL_HINT =
  "Install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`), or set SOLO_SANDBOX=weak to accept the weaker fallback described in docs/solo-assets.md.";

function shellQuote(value: string): string {
  return `'${value.split("'").join("'\\''")}'`;
}

function contains(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A fresh environment for saved code: nothing is copied from ours. */
export function sandboxEnvironment(home: string, venvDir: string): Record<string, string> {
  const bin = process.platform === "win32" ? join(venvDir, "Scripts") : join(venvDir, "bin");
  return {
    PATH: [bin, "/usr/local/bin", "/usr/bin", "/bin"].join(process.platform === "win32" ? ";" : ":"),
    HOME: home,
    TMPDIR: home,
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

/** Every folder from `/` down to `path`'s parent, outermost first. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) out.unshift(dir);
  return out;
}

/** The top-level system folders Python needs, as on the host: links stay links. */
function systemMounts(): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const top of ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]) {
    try {
      const info = lstatSync(top);
      if (info.isSymbolicLink()) args.push("--symlink", readlinkSync(top), top);
      else if (info.isDirectory()) args.push("--ro-bind", top, top);
    } catch {
      // Not on this system.
    }
  }
  // The dynamic linker's cache and the time zone: no secrets, and programs expect them.
  for (const file of ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime"]) args.push("--ro-bind-try", file, file);
  return args;
}

/** A deny-by-default sandbox-exec profile (macOS; untested here). */
function seatbeltProfile(readable: readonly string[], writable: string): string {
  const q = (path: string) => JSON.stringify(path);
  return [
    "(version 1)",
    "(deny default)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow file-read-metadata)",
    `(allow process-exec ${readable.map((p) => `(subpath ${q(p)})`).join(" ")})`,
    `(allow file-read* (subpath "/usr") (subpath "/System") (subpath "/Library/Frameworks") (subpath "/private/var/db/dyld") (literal "/dev/null") (literal "/dev/urandom") (literal "/dev/random") ${readable.map((p) => `(subpath ${q(p)})`).join(" ")} (subpath ${q(writable)}))`,
    `(allow file-write* (subpath ${q(writable)}) (literal "/dev/null"))`,
  ].join("\n");
}

export class Sandbox {
  private readonly detected: Lazy<Detected>;
  private readonly prefixes = new Map<string, Promise<string[]>>();

  constructor(readonly options: SandboxOptions) {
    this.detected = new Lazy(() => this.detect());
  }

  async describe(): Promise<SandboxCapabilities> {
    const { kind, unavailable, networkIsolated, limits, prlimit } = await this.detected.get();
    return { kind, ...(unavailable ? { unavailable } : {}), networkIsolated, limits, prlimit };
  }

  private get memoryBytes(): number {
    return this.options.memoryMb * 1024 * 1024;
  }

  private get cpuSeconds(): number {
    return Math.ceil(this.options.timeoutMs / 1000) + 5;
  }

  /** The limits the harness must apply itself: set when prlimit cannot do it from outside. */
  async harnessLimits(): Promise<HarnessLimits | undefined> {
    const caps = await this.detected.get();
    return caps.prlimit ? undefined : { memory_bytes: this.memoryBytes, cpu_seconds: this.cpuSeconds };
  }

  private async works(command: string, args: readonly string[]): Promise<boolean> {
    return (await runProcess(command, args, { env: this.options.toolEnv, timeoutMs: 10_000 })).code === 0;
  }

  private async detect(): Promise<Detected> {
    const env = this.options.toolEnv;
    const prlimitPath = findOnPath("prlimit", env.PATH);
    const prlimit = prlimitPath && (await this.works(prlimitPath, ["--version"])) ? prlimitPath : undefined;
    const limiter = await detectResourceLimiter(env, prlimit);
    const base = { limits: limiter.kind, prlimit, limiter };

    let unavailable: string;
    if (process.platform === "linux") {
      const bwrap = findOnPath("bwrap", env.PATH);
      const root = process.getuid?.() === 0;
      const setpriv = root ? findOnPath("setpriv", env.PATH) : undefined;
      if (bwrap && (!root || setpriv)) {
        const probe = [
          ...this.bwrapNamespaceArgs(root),
          ...systemMounts(),
          "--proc",
          "/proc",
          "--dev",
          "/dev",
          "--",
          "/usr/bin/env",
          "true",
        ];
        if (await this.works(bwrap, probe)) return { kind: "bwrap", networkIsolated: true, bwrap: { command: bwrap, setpriv }, ...base };
        unavailable = `bubblewrap (${bwrap}) is installed but could not make a sandbox here (user namespaces disabled?).`;
      } else {
        unavailable = bwrap
          ? "bubblewrap is installed but setpriv (util-linux), which drops root for the test run, is not."
          : "bubblewrap (bwrap) is not installed.";
      }
    } else if (process.platform === "darwin") {
      const sandboxExec = findOnPath("sandbox-exec", env.PATH);
      if (sandboxExec && (await this.works(sandboxExec, ["-p", "(version 1)(allow default)", "/usr/bin/true"]))) {
        return { kind: "sandbox-exec", networkIsolated: true, sandboxExec, ...base };
      }
      unavailable = "sandbox-exec is not available.";
    } else {
      unavailable = `No sandbox is supported on ${process.platform}.`;
    }
    if (this.options.mode === "strict")
      return { kind: undefined, unavailable: `${unavailable} ${INSTALL_HINT}`, networkIsolated: false, ...base };
    return { ...(await this.detectWeak()), unavailable, ...base };
  }

  /** The old fallback (SOLO_SANDBOX=weak): unshare namespaces where possible, else a plain process. */
  private async detectWeak(): Promise<Pick<Detected, "kind" | "networkIsolated" | "unshare" | "namespaces">> {
    const env = this.options.toolEnv;
    const unshare = findOnPath("unshare", env.PATH);
    if (!unshare || !(await this.works(unshare, ["-rn", "true"]))) return { kind: "process", networkIsolated: false };
    const sh = findOnPath("sh", env.PATH);
    const mount = findOnPath("mount", env.PATH);
    if (sh && mount) {
      const script = `${shellQuote(mount)} -t tmpfs -o size=64k solo-probe ${shellQuote(tmpdir())}`;
      if (await this.works(unshare, [...UNSHARE_FLAGS, "--", sh, "-c", script]))
        return { kind: "unshare", networkIsolated: true, unshare, namespaces: { sh, mount } };
    }
    return { kind: "unshare", networkIsolated: true, unshare };
  }

  private bwrapNamespaceArgs(root: boolean): string[] {
    // As root, a user namespace would map the sandbox's user to root outside (kernel uid 0):
    // every namespace but that one, and setpriv makes the code `nobody`.
    const namespaces = root
      ? ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
      : ["--unshare-all"];
    // As root, setpriv needs CAP_SETUID/CAP_SETGID to become nobody, and then drops every
    // capability, the bounding set included, before the code runs.
    const caps = root ? ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"] : ["--cap-drop", "ALL"];
    return [...namespaces, "--die-with-parent", "--new-session", ...caps, "--clearenv"];
  }

  /** The interpreter's installation (sys.base_prefix), read by running it with no user code. */
  private interpreterPrefixes(python: string): Promise<string[]> {
    let pending = this.prefixes.get(python);
    if (!pending) {
      pending = runProcess(python, ["-I", "-S", "-c", "import json, sys; print(json.dumps([sys.base_prefix, sys.base_exec_prefix]))"], {
        env: { PATH: "/usr/bin:/bin" },
        timeoutMs: 15_000,
      }).then((result) => {
        const listed: unknown = (() => {
          try {
            return result.code === 0 ? JSON.parse(result.stdout) : [];
          } catch {
            return [];
          }
        })();
        const candidates = Array.isArray(listed) ? listed.filter((p): p is string => typeof p === "string") : [];
        const real = candidates.flatMap((path) => {
          try {
            return [realpathSync(path)];
          } catch {
            return [];
          }
        });
        try {
          // The folder above the interpreter's bin/, where a venv's python link leads.
          real.push(dirname(dirname(realpathSync(python))));
        } catch {
          // No such interpreter: the run reports it.
        }
        return [...new Set(real)];
      });
      this.prefixes.set(python, pending);
    }
    return pending;
  }

  private async bwrapCommand(
    bwrap: NonNullable<Detected["bwrap"]>,
    python: string,
    args: readonly string[],
    workDir: string,
    venvDir: string,
  ): Promise<string[]> {
    const root = bwrap.setpriv !== undefined;
    const command = [bwrap.command, ...this.bwrapNamespaceArgs(root), ...systemMounts()];
    const covered = (path: string) => ["/usr", "/bin", "/lib", "/lib64", "/sbin"].some((top) => contains(top, path));
    // /proc, /dev and the private /tmp first: the binds below may lie under /tmp on the host.
    command.push("--proc", "/proc", "--dev", "/dev");
    command.push("--size", String(this.memoryBytes), "--perms", "1777", "--tmpfs", "/tmp");
    const made = new Set<string>(["/tmp"]);
    const bindReadOnly = (path: string) => {
      // bwrap creates missing parents with the host folder's mode (0700 for /root): make them
      // traversable, empty folders of the sandbox's own root.
      for (const dir of ancestors(path)) {
        if (made.has(dir) || covered(dir)) continue;
        made.add(dir);
        command.push("--perms", "0755", "--dir", dir);
      }
      command.push("--ro-bind", path, path);
    };
    for (const prefix of await this.interpreterPrefixes(python)) if (!covered(prefix)) bindReadOnly(prefix);
    bindReadOnly(venvDir);
    command.push("--ro-bind", workDir, INSIDE_WORK, "--chdir", INSIDE_WORK);
    for (const [key, value] of Object.entries(sandboxEnvironment("/tmp", venvDir))) command.push("--setenv", key, value);
    command.push("--");
    if (bwrap.setpriv) {
      command.push(
        bwrap.setpriv,
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
      );
    }
    command.push(python, ...args);
    return command;
  }

  /**
   * The weak fallback's shell script: inside the namespaces, covers the private files' folder
   * with a tmpfs, binds every other entry back, then runs the command it is given.
   */
  private async hidingScript(mount: string, workDir: string, keep: readonly string[]): Promise<string> {
    const lines = ["set -e"];
    const hidden = this.options.privateFiles;
    const entries = hidden ? await readdir(hidden.dir, { withFileTypes: true }).catch(() => undefined) : undefined;
    if (hidden && entries && hidden.dir !== "/") {
      const dir = hidden.dir;
      const q = (name: string) => shellQuote(join(dir, name));
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

  /**
   * Runs `python args…` on the inputs in `workDir` (read-only inside bwrap; `tmpDir` is the
   * writable scratch folder for sandbox-exec and the weak fallback). Results come back on stdout.
   */
  async run(
    python: string,
    args: readonly string[],
    options: { workDir: string; tmpDir: string; venvDir: string; signal: AbortSignal },
  ): Promise<SandboxRun> {
    const caps = await this.detected.get();
    if (caps.kind === undefined) throw new SandboxUnavailableError(caps.unavailable ?? INSTALL_HINT);
    // The inputs must be readable by the sandbox's user (nobody, when we are root): the folder
    // is traversable but not listable, its name random.
    await chmod(options.workDir, 0o711);
    await makeReadable(options.workDir);

    const limited = await caps.limiter.start({ memoryBytes: this.memoryBytes, maxProcesses: this.options.maxProcesses });
    try {
      const command: string[] = [...limited.prefix];
      if (caps.prlimit) {
        command.push(caps.prlimit, `--as=${this.memoryBytes}`, `--cpu=${this.cpuSeconds}`);
        if (!caps.limiter.wholeRun) command.push(`--nproc=${this.options.maxProcesses}`);
      }
      let env = sandboxEnvironment(options.tmpDir, options.venvDir);
      let cwd = options.workDir;
      switch (caps.kind) {
        case "bwrap":
          if (!caps.bwrap) throw new SandboxUnavailableError("bubblewrap was detected but is not configured.");
          command.push(...(await this.bwrapCommand(caps.bwrap, python, args, options.workDir, options.venvDir)));
          // bwrap's own environment: nothing of ours (the sandbox gets its own with --setenv).
          env = { PATH: "/usr/bin:/bin" };
          cwd = tmpdir();
          break;
        case "sandbox-exec": {
          const readable = [...(await this.interpreterPrefixes(python)), options.venvDir, options.workDir];
          command.push(caps.sandboxExec ?? "sandbox-exec", "-p", seatbeltProfile(readable, options.tmpDir), python, ...args);
          break;
        }
        case "unshare":
          if (caps.namespaces) {
            const script = await this.hidingScript(caps.namespaces.mount, options.workDir, [
              options.workDir,
              options.tmpDir,
              options.venvDir,
            ]);
            command.push(caps.unshare ?? "unshare", ...UNSHARE_FLAGS, "--", caps.namespaces.sh, "-c", script, "solo-sandbox");
          } else {
            command.push(caps.unshare ?? "unshare", "-rn");
          }
          command.push(python, ...args);
          break;
        case "process":
          command.push(python, ...args);
          break;
      }
      const [program = python, ...rest] = command;
      const result = await runProcess(program, rest, {
        cwd,
        env,
        timeoutMs: this.options.timeoutMs,
        signal: options.signal,
        maxOutputBytes: 4 * 1024 * 1024,
      });
      return { ...result, kind: caps.kind, networkIsolated: caps.networkIsolated, limits: caps.limits, oomKilled: limited.oomKilled() };
    } finally {
      await limited.dispose();
    }
  }
}
