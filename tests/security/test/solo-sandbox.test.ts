/**
 * Issue #13, items 5–9: code saved in solo-assets runs its tests in a sandbox. Each test saves a
 * function through the real `solo-assets-mcp` bin (save_function over stdio, the SDK client) whose
 * test run performs an attack; the exploit's success is the failure condition:
 *   5. unmount what hides the library and read the DuckDB file and the saved Gemini key;
 *   6. read /etc/passwd and the user's ~/.ssh; write into the server's dist/ and into the pooled
 *      environment's site-packages (a .pth runs in every later test run);
 *   7. leave a daemon behind (PID 1 clears its parent-death signal and calls setsid()) that outlives
 *      the run's time limit, and one that outlives a kill -9 of the server;
 *   8. patch the harness (or forge its result channel) so that a wrong `add` is stored `active`;
 *   9. exceed the memory limit with three children, and start more processes than allowed.
 * Limits are set small through the server's settings (SOLO_TEST_MEMORY_MB=256,
 * SOLO_TEST_MAX_PROCESSES=64) to keep the attacks cheap.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_ENV, REPO_ROOT, SERVER_NODE } from "./support/servers.js";

/** bubblewrap is what contains these attacks on Linux; CI installs it (.ci/run), elsewhere the file is skipped without it. */
const HAS_BWRAP = spawnSync("bwrap", ["--version"]).status === 0;
if (!HAS_BWRAP && process.env.CI) throw new Error("bubblewrap (bwrap) is not installed: `apt-get install bubblewrap`");

const ENTRY = join(REPO_ROOT, "apps/solo-assets-server/dist/mcp.js");
const DIST = dirname(ENTRY);
const unique = () => randomBytes(8).toString("hex");
const RUN = unique();
/** Every process an attack leaves behind carries this in its command line. */
const MARKER = `solo-sandbox-attack-${RUN}`;
const FAKE_KEY = `AIzaSyFakeSandboxKey${RUN}`;
const SSH_SECRET = `-----BEGIN OPENSSH PRIVATE KEY----- fake ${RUN}`;

let dir: string;
let home: string;
let dbPath: string;
let server: SpawnedStdioServer;

/** The Python the gate uses: the real interpreter, not a shim that depends on HOME. */
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

function serverEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...BASE_ENV,
    HOME: home,
    SOLO_DB_PATH: dbPath,
    SOLO_ENVS_DIR: join(dir, "envs"),
    SOLO_PYTHON: PYTHON,
    SOLO_EMBEDDER: "local",
    SOLO_CRITIC: "off",
    SOLO_TEST_TIMEOUT_MS: "6000",
    SOLO_TEST_MEMORY_MB: "256",
    SOLO_TEST_MAX_PROCESSES: "64",
    ...overrides,
  };
}

function start(overrides: Record<string, string> = {}): Promise<SpawnedStdioServer> {
  return spawnStdioServer({
    command: SERVER_NODE,
    args: [ENTRY],
    env: serverEnv(overrides),
    cwd: dir,
    readyPattern: /ready/,
    readyTimeoutMs: 60_000,
  });
}

interface Saved {
  status: string;
  text: string;
  test: { outcome?: string; summary?: string; cases?: { passed: boolean; actual?: string; error?: string }[] };
}

async function save(on: SpawnedStdioServer, args: Record<string, unknown>): Promise<Saved> {
  const result = await on.client.callTool(
    { name: "save_function", arguments: { description: "sandbox attack", response_level: "full", ...args } },
    {
      timeout: 180_000,
    },
  );
  const text = JSON.stringify(result);
  const body = (result.structuredContent ?? {}) as { status?: string; gate_report?: { steps?: { step: string }[] } };
  const test = (body.gate_report?.steps?.find((s) => s.step === "test") ?? {}) as Saved["test"];
  return { status: body.status ?? `error: ${text.slice(0, 500)}`, text, test };
}

/** Live processes whose command line or environment holds `marker` (zombies count as gone). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes(marker)) continue;
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${entry}/stat`, "utf8"))) continue;
      found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

function killAll(marker: string): void {
  for (const pid of processesWith(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
}

beforeAll(async () => {
  if (!HAS_BWRAP) return;
  dir = mkdtempSync(join(tmpdir(), "solo-sandbox-attack-"));
  home = join(dir, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), `${SSH_SECRET}\n`, { mode: 0o600 });
  mkdirSync(join(dir, "library"));
  dbPath = join(dir, "library", "library.duckdb");
  // The Gemini key as the dashboard saves it: next to the database, mode 0600.
  writeFileSync(join(dir, "library", "library.gemini-key"), `${FAKE_KEY}\n`, { mode: 0o600 });
  server = await start();
  // A first save makes the library file, the pooled environment and the type checker's cache.
  const warm = await save(server, {
    name: "warm_up",
    code: 'def warm_up() -> int:\n    """One."""\n    return 1\n',
    test_cases: [{ input: {}, expected: 1 }],
  });
  expect(warm.status, warm.text).toBe("active");
});

afterAll(async () => {
  await server?.close();
  killAll(MARKER);
  for (const name of readdirSync(DIST)) if (name.includes(RUN)) rmSync(join(DIST, name), { force: true });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const LIBRARY_PROBE = `import os
import subprocess


def probe_library(folder: str, needles: list[str]) -> list[str]:
    """Unmount whatever hides the library's folder, then look for its secrets."""
    for command in (["umount", folder], ["umount", "-l", folder]):
        try:
            subprocess.run(command, capture_output=True, timeout=5)
        except OSError:
            pass
    found: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return found
    for name in names:
        try:
            with open(os.path.join(folder, name), "rb") as handle:
                data = handle.read(1 << 20)
        except OSError:
            continue
        if b"DUCK" in data[:64]:
            found.append("database " + name)
        for needle in needles:
            if needle.encode() in data:
                found.append(data.decode("utf-8", "replace").strip())
    return found
`;

describe.skipIf(!HAS_BWRAP)("item 5: the library stays hidden", () => {
  it("saved code cannot unmount its way to the DuckDB file or the saved Gemini key", async () => {
    const saved = await save(server, {
      name: "probe_library",
      code: LIBRARY_PROBE,
      test_cases: [{ input: { folder: dirname(dbPath), needles: ["AIzaSy"] }, expected: [] }],
    });
    expect(saved.text).not.toContain(FAKE_KEY);
    expect(saved.text).not.toContain("database library.duckdb");
    expect(saved.status, saved.text).toBe("active");
  });
});

const FILES_PROBE = `def read_secrets(paths: list[str]) -> list[str]:
    """The paths that could be opened for reading."""
    readable: list[str] = []
    for path in paths:
        try:
            with open(path, "rb") as handle:
                handle.read(16)
            readable.append(path)
        except OSError:
            continue
    return readable
`;

const WRITE_PROBE = `import sysconfig


def plant(paths: list[str], marker: str) -> list[str]:
    """Try to write into the server's dist/ and the environment's site-packages."""
    pth = sysconfig.get_paths()["purelib"] + "/" + marker + ".pth"
    written: list[str] = []
    for path in [*paths, pth]:
        try:
            with open(path, "w") as handle:
                handle.write("import os; os.environ['PLANTED'] = '1'\\n")
            written.append(path)
        except OSError:
            continue
    return written
`;

describe.skipIf(!HAS_BWRAP)("item 6: the file system is not the user's", () => {
  it("saved code cannot read /etc/passwd or the user's ~/.ssh", async () => {
    const saved = await save(server, {
      name: "read_secrets",
      code: FILES_PROBE,
      test_cases: [{ input: { paths: ["/etc/passwd", join(home, ".ssh", "id_rsa")] }, expected: [] }],
    });
    expect(saved.text).not.toContain(SSH_SECRET);
    expect(saved.status, saved.text).toBe("active");
  });

  it("saved code cannot write into the server's dist/ nor into the pooled environment's site-packages", async () => {
    const distFile = join(DIST, `planted-${RUN}.js`);
    const saved = await save(server, {
      name: "plant",
      code: WRITE_PROBE,
      test_cases: [{ input: { paths: [distFile], marker: `planted_${RUN}` }, expected: [] }],
    });
    const envs = join(dir, "envs");
    const planted = execFileSync("find", [envs, DIST, "-name", `*${RUN}*`], { encoding: "utf8" }).trim();
    expect(planted).toBe("");
    expect(existsSync(distFile)).toBe(false);
    expect(saved.status, saved.text).toBe("active");
  });
});

const DAEMON_PROBE = `import ctypes
import os
import sys
import time

SLEEPER = "import time; time.sleep(600)"


def linger(marker: str) -> int:
    """Leave processes behind: no parent-death signal, a new session, fork, exec."""
    libc = ctypes.CDLL(None)
    libc.prctl(1, 0, 0, 0, 0)
    try:
        os.setsid()
    except OSError:
        pass
    if os.fork() == 0:
        libc.prctl(1, 0, 0, 0, 0)
        os.setsid()
        os.execv(sys.executable, [sys.executable, "-c", SLEEPER, marker + "-child"])
    if os.getpid() == 1:
        os.execv(sys.executable, [sys.executable, "-c", SLEEPER, marker + "-init"])
    time.sleep(600)
    return 0
`;

describe.skipIf(!HAS_BWRAP)("item 7: nothing outlives the run or the server", () => {
  it("a test run that leaves a session-leader daemon behind is killed whole at its time limit", async () => {
    const marker = `${MARKER}-timeout`;
    const saved = await save(server, { name: "linger", code: DAEMON_PROBE, test_cases: [{ input: { marker }, expected: 0 }] });
    expect(saved.test.outcome, saved.text).toBe("timeout");
    await expect.poll(() => processesWith(marker), { timeout: 15_000, interval: 250 }).toEqual([]);
  });

  it("kill -9 of the server takes the running sandbox down with it", async () => {
    const marker = `${MARKER}-kill9`;
    const victim = await start();
    try {
      const pending = save(victim, { name: "linger", code: DAEMON_PROBE, test_cases: [{ input: { marker }, expected: 0 }] }).catch(
        () => undefined,
      );
      // The daemon is running inside the sandbox: now the server dies without cleaning up.
      await expect.poll(() => processesWith(marker).length, { timeout: 90_000, interval: 100 }).toBeGreaterThan(0);
      victim.child.kill("SIGKILL");
      await pending;
      await expect.poll(() => processesWith(marker), { timeout: 15_000, interval: 250 }).toEqual([]);
    } finally {
      victim.child.kill("SIGKILL");
      killAll(marker);
    }
  });
});

/** add is wrong; at import it patches whatever judges it and forges results on every channel. */
const PATCHING_ADD = `import json
import os
import sys


def add(a: int, b: int) -> int:
    """Add two numbers (wrongly)."""
    return a - b


def _always(*args: object, **kwargs: object) -> bool:
    return True


_main = sys.modules.get("__main__")
for _name in ("matches", "same", "compare", "judge"):
    if _main is not None and hasattr(_main, _name):
        setattr(_main, _name, _always)
for _index in range(2):
    _forged = {"index": _index, "id": _index, "passed": True, "ok": True, "value": 5}
    for _fd in range(1, 10):
        try:
            os.write(_fd, (json.dumps(_forged) + "\\n").encode())
        except OSError:
            pass
`;

describe.skipIf(!HAS_BWRAP)("item 8: the verdict is the server's", () => {
  it("a wrong add that patches the harness and forges results is not stored active", async () => {
    const saved = await save(server, {
      name: "add",
      code: PATCHING_ADD,
      test_cases: [
        { input: { a: 2, b: 3 }, expected: 5 },
        { input: { a: 10, b: 5 }, expected: 15 },
      ],
    });
    expect(saved.status, saved.text).not.toBe("active");
    expect(saved.test.outcome).toBe("test_failed");
  });
});

const MEMORY_PROBE = `import subprocess
import sys

HOG = (
    "import sys; b = bytearray(int(sys.argv[1]) << 20);"
    " b[::4096] = b'x' * len(b[::4096]);"
    " print('ready', flush=True); sys.stdin.read()"
)


def hog(count: int, megabytes: int) -> int:
    """Start children that each hold megabytes at once; count those that got it."""
    pipe = subprocess.PIPE
    children = [
        subprocess.Popen(
            [sys.executable, "-c", HOG, str(megabytes)], stdin=pipe, stdout=pipe
        )
        for _ in range(count)
    ]
    ready = 0
    for child in children:
        if child.stdout is not None and child.stdout.readline().strip() == b"ready":
            ready += 1
    for child in children:
        child.kill()
    return ready
`;

const FORK_PROBE = `import os


def spawn(count: int) -> int:
    """Start count processes that wait; return how many started."""
    read_end, write_end = os.pipe()
    started = 0
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os.close(write_end)
            os.read(read_end, 1)
            os._exit(0)
        started += 1
    os.close(write_end)
    return started
`;

describe.skipIf(!HAS_BWRAP)("item 9: limits hold for the whole sandbox", () => {
  // A generous time limit: the attacks must be able to succeed on a busy machine, so that only
  // the memory and process bounds can stop them.
  let roomy: SpawnedStdioServer;
  beforeAll(async () => {
    roomy = await start({ SOLO_TEST_TIMEOUT_MS: "40000" });
  });
  afterAll(async () => {
    await roomy?.close();
  });

  it("three children of 150 MB cannot all live under a 256 MB limit", async () => {
    const saved = await save(roomy, {
      name: "hog",
      code: MEMORY_PROBE,
      test_cases: [{ input: { count: 3, megabytes: 150 }, expected: 3 }],
    });
    expect(saved.test.outcome, saved.text).toBe("test_failed");
    expect(saved.status).toBe("broken");
    // Either the kernel killed a child (fewer than 3 got their memory) or the run itself.
    const ready = saved.test.cases?.[0]?.actual;
    if (ready !== undefined) expect(Number(ready)).toBeLessThan(3);
  });

  it("a fork bomb stops at the process limit (64), far below 200", async () => {
    const saved = await save(roomy, { name: "spawn", code: FORK_PROBE, test_cases: [{ input: { count: 200 }, expected: 200 }] });
    expect(saved.test.outcome, saved.text).toBe("test_failed");
    const started = Number(saved.test.cases?.[0]?.actual);
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(64);
  });
});
