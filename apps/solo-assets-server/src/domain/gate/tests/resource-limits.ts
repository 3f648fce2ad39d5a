/**
 * Memory and process-count bounds for a WHOLE test run (every process the saved code starts),
 * not per process. The first of these that works here is used:
 *   - `cgroup-v2`: a child of this process's own cgroup v2 group, with `memory.max`,
 *     `memory.swap.max` 0 and `pids.max` (needs those controllers delegated to our group);
 *   - `cgroup-v1`: a child of our own group in the v1 `memory` and `pids` hierarchies, with
 *     `memory.limit_in_bytes` (and the swap limit when the kernel has it) and `pids.max`
 *     (a root process on a host with v1 controllers, as on our CI machine);
 *   - `systemd-run`: `systemd-run --user --scope -p MemoryMax=… -p MemorySwapMax=0 -p TasksMax=…`,
 *     the delegated cgroup v2 a desktop session's user manager gives an unprivileged user
 *     (a laptop without root; not available on our CI machine, so untested here);
 *   - `prlimit`: per process only — an address-space limit and `RLIMIT_NPROC`, which a process
 *     running as root ignores; the docs say so.
 * The run is put into its group race-free: a tiny `sh` wrapper writes its own PID into the
 * group's `cgroup.procs`, then execs the sandbox, so the sandbox and everything under it start
 * inside. The group is removed after the run.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { findOnPath } from "../../process/find-executable.js";
import { runProcess } from "../../process/run-process.js";

export type LimiterKind = "cgroup-v2" | "cgroup-v1" | "systemd-run" | "prlimit";

export interface ResourceBounds {
  memoryBytes: number;
  maxProcesses: number;
}

/** One run's group: the command prefix that enters it, and its removal. */
export interface LimitedRun {
  prefix: string[];
  /** True when the kernel killed a process of the group for memory (when it can tell). */
  oomKilled(): boolean;
  dispose(): Promise<void>;
}

export interface ResourceLimiter {
  kind: LimiterKind;
  /** Whether the bound covers the whole run (false: per process only). */
  wholeRun: boolean;
  start(bounds: ResourceBounds): Promise<LimitedRun>;
}

interface MountInfo {
  mountPoint: string;
  root: string;
  fsType: string;
  options: string[];
}

function mounts(): MountInfo[] {
  try {
    return readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => {
        const [left = "", right = ""] = line.split(" - ");
        const fields = left.split(" ");
        const [fsType = "", , superOptions = ""] = right.split(" ");
        return { mountPoint: fields[4] ?? "", root: fields[3] ?? "", fsType, options: superOptions.split(",") };
      });
  } catch {
    return [];
  }
}

/** `/proc/self/cgroup`: hierarchy controllers ("" for v2) → our path in it. */
function ownGroups(): Map<string, string> {
  const groups = new Map<string, string>();
  try {
    for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
      const match = /^\d+:([^:]*):(.*)$/.exec(line);
      if (match) groups.set(match[1] ?? "", match[2] ?? "/");
    }
  } catch {
    // Not Linux.
  }
  return groups;
}

/** Our own group's folder in the hierarchy mounted with `fsType`/`controller`, when mounted. */
function ownGroupDir(fsType: "cgroup" | "cgroup2", controller?: string): string | undefined {
  const groups = ownGroups();
  const path =
    fsType === "cgroup2" ? groups.get("") : [...groups].find(([controllers]) => controllers.split(",").includes(controller ?? ""))?.[1];
  if (path === undefined) return undefined;
  const mount = mounts().find((m) => m.fsType === fsType && (fsType === "cgroup2" || m.options.includes(controller ?? "")));
  if (!mount) return undefined;
  // The mount shows the hierarchy from `root`; our path is relative to the hierarchy's root.
  const rel = mount.root === "/" ? path : path.startsWith(mount.root) ? path.slice(mount.root.length) : undefined;
  if (rel === undefined) return undefined;
  return join(mount.mountPoint, rel);
}

const quote = (value: string) => `'${value.split("'").join("'\\''")}'`;

/** `sh -c` that moves itself into every `cgroup.procs` given, then execs the rest. */
function enterPrefix(sh: string, procsFiles: readonly string[]): string[] {
  const writes = procsFiles.map((file) => `echo $$ > ${quote(file)}`).join(" && ");
  return [sh, "-c", `${writes} && exec "$@"`, "solo-limits"];
}

async function removeGroup(dir: string): Promise<void> {
  // The run's processes are dead by now (the sandbox's PID namespace died with it); the kernel
  // may take a moment to release the last one.
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function counter(file: string, key: string): number {
  try {
    const match = new RegExp(`^${key} (\\d+)$`, "m").exec(readFileSync(file, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function cgroupV2(sh: string): ResourceLimiter | undefined {
  const own = ownGroupDir("cgroup2");
  if (!own || !existsSync(join(own, "cgroup.subtree_control"))) return undefined;
  try {
    const enabled = readFileSync(join(own, "cgroup.subtree_control"), "utf8").split(/\s+/);
    if (!enabled.includes("memory") || !enabled.includes("pids")) return undefined;
  } catch {
    return undefined;
  }
  return {
    kind: "cgroup-v2",
    wholeRun: true,
    async start(bounds) {
      const dir = join(own, `solo-test-${randomBytes(6).toString("hex")}`);
      await mkdir(dir);
      try {
        await writeFile(join(dir, "memory.max"), String(bounds.memoryBytes));
        await writeFile(join(dir, "memory.swap.max"), "0").catch(() => undefined);
        await writeFile(join(dir, "pids.max"), String(bounds.maxProcesses));
      } catch (error) {
        await removeGroup(dir);
        throw error;
      }
      return {
        prefix: enterPrefix(sh, [join(dir, "cgroup.procs")]),
        oomKilled: () => counter(join(dir, "memory.events"), "oom_kill") > 0,
        dispose: () => removeGroup(dir),
      };
    },
  };
}

function cgroupV1(sh: string): ResourceLimiter | undefined {
  const memory = ownGroupDir("cgroup", "memory");
  const pids = ownGroupDir("cgroup", "pids");
  if (!memory || !pids || !existsSync(join(memory, "cgroup.procs")) || !existsSync(join(pids, "cgroup.procs"))) return undefined;
  return {
    kind: "cgroup-v1",
    wholeRun: true,
    async start(bounds) {
      const name = `solo-test-${randomBytes(6).toString("hex")}`;
      const memoryDir = join(memory, name);
      const pidsDir = join(pids, name);
      await mkdir(memoryDir);
      try {
        await mkdir(pidsDir);
        await writeFile(join(memoryDir, "memory.limit_in_bytes"), String(bounds.memoryBytes));
        // With swap accounting, memory + swap gets the same bound (no swapping past it).
        if (existsSync(join(memoryDir, "memory.memsw.limit_in_bytes"))) {
          await writeFile(join(memoryDir, "memory.memsw.limit_in_bytes"), String(bounds.memoryBytes));
        }
        await writeFile(join(pidsDir, "pids.max"), String(bounds.maxProcesses));
      } catch (error) {
        await removeGroup(pidsDir);
        await removeGroup(memoryDir);
        throw error;
      }
      return {
        prefix: enterPrefix(sh, [join(memoryDir, "cgroup.procs"), join(pidsDir, "cgroup.procs")]),
        oomKilled: () => counter(join(memoryDir, "memory.oom_control"), "oom_kill") > 0,
        dispose: async () => {
          await removeGroup(pidsDir);
          await removeGroup(memoryDir);
        },
      };
    },
  };
}

async function systemdRun(env: Readonly<Record<string, string>>): Promise<ResourceLimiter | undefined> {
  const command = findOnPath("systemd-run", env.PATH);
  if (!command) return undefined;
  const base = [command, "--user", "--scope", "--quiet", "--collect"];
  const probe = await runProcess(command, [...base.slice(1), "-p", "MemoryMax=64M", "-p", "TasksMax=8", "--", "true"], {
    env,
    timeoutMs: 10_000,
  });
  if (probe.code !== 0) return undefined;
  return {
    kind: "systemd-run",
    wholeRun: true,
    async start(bounds) {
      return {
        prefix: [...base, "-p", `MemoryMax=${bounds.memoryBytes}`, "-p", "MemorySwapMax=0", "-p", `TasksMax=${bounds.maxProcesses}`, "--"],
        oomKilled: () => false,
        dispose: async () => undefined,
      };
    },
  };
}

/** The first limiter that works here, else the per-process fallback. */
export async function detectResourceLimiter(env: Readonly<Record<string, string>>, prlimit: string | undefined): Promise<ResourceLimiter> {
  const sh = findOnPath("sh", env.PATH);
  if (process.platform === "linux" && sh) {
    for (const candidate of [cgroupV2(sh), cgroupV1(sh)]) {
      if (!candidate) continue;
      // Creating, limiting and removing a group must work, not just look possible.
      try {
        const run = await candidate.start({ memoryBytes: 64 * 1024 * 1024, maxProcesses: 8 });
        const entered = await runProcess(run.prefix[0] ?? sh, [...run.prefix.slice(1), "true"], { env, timeoutMs: 10_000 });
        await run.dispose();
        if (entered.code === 0) return candidate;
      } catch {
        // Not writable here.
      }
    }
    const user = await systemdRun(env);
    if (user) return user;
  }
  return {
    kind: "prlimit",
    wholeRun: false,
    async start(bounds) {
      return {
        prefix: prlimit ? [prlimit, `--as=${bounds.memoryBytes}`, `--nproc=${bounds.maxProcesses}`] : [],
        oomKilled: () => false,
        dispose: async () => undefined,
      };
    },
  };
}
