/**
 * Security review (issue #8, part 5): code saved in solo runs its tests in the sandbox and there
 * cannot read the server's API keys — not in its own environment, not in any process's
 * /proc/<pid>/environ, not in the key file saved from the dashboard — cannot reach the network,
 * and dies at the time limit with every process it started, a child in a new session included.
 * Drives the real bin (dist/mcp.js) over stdio, whose environment holds the secrets.
 *
 * Where no sandbox (bubblewrap) is available, the documented behaviour is checked instead: tests
 * are not run and the function is stored `unverified`. Both are also checked on this machine by
 * hiding bubblewrap from the server's PATH: strict refuses (naming `apt-get install bubblewrap`),
 * SOLO_SANDBOX=weak falls back to `unshare` with its weaker, documented guarantees. The attacks
 * against the sandbox itself are in tests/security/test/solo-sandbox.test.ts.
 */
import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo, Server } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSoloAssetsConfig } from "../src/config.js";
import { openSoloServices } from "../src/services.js";
import type { GateTools } from "../src/services.js";
import { linkLintAndTypeTools } from "./helpers/gate-tools.js";
import { saveView, step } from "./helpers/gate-views.js";
import { tempLibrary, testEnv } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const unique = () => randomBytes(9).toString("hex");
/** Every secret below contains this tag; the probes look for the tag (so their input names no secret). */
const TAG = "not-real-sandbox-probe";
/** Recognisable values: the server's environment and the key file hold them, saved code must not see them. */
const SECRETS = {
  GOOGLE_API_KEY: `AIzaSy${unique()}-${TAG}`,
  GITHUB_TOKEN: `ghp_${unique()}-${TAG}`,
  DEPLOY_SECRET: `secret-${unique()}-${TAG}`,
};
const FILE_KEY = `AIzaSy${unique()}-file-${TAG}`;
const NEEDLES = [...Object.values(SECRETS), FILE_KEY];

const LEAK_PROBE = `import os


def leaked(tag: str, files: list[str]) -> list[str]:
    """Every place where text holding the tag can be read."""
    found: list[str] = []
    for key, value in os.environ.items():
        if tag in value:
            found.append("environment " + key)
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open("/proc/" + pid + "/environ", "rb") as handle:
                    text = handle.read().decode("utf-8", "replace")
            except OSError:
                continue
            if tag in text:
                found.append("/proc/" + pid + "/environ")
    for path in files:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        if tag in text:
            found.append(path)
    return found
`;

const NETWORK_PROBE = `import socket


def reachable(addresses: list[list[str]]) -> list[str]:
    """The host:port pairs a TCP connection reaches."""
    found: list[str] = []
    for host, port in addresses:
        try:
            with socket.create_connection((host, int(port)), timeout=3):
                found.append(host + ":" + port)
        except OSError:
            continue
    return found
`;

/** Starts one ordinary child and one in a new session (out of the process group), then spins. */
const SPIN_PROBE = `import subprocess
import sys

SLEEPER = "import time; time.sleep(99)"


def spin(marker: str) -> int:
    """Never returns: the sandbox must kill it and its children."""
    python = sys.executable
    subprocess.Popen([python, "-c", SLEEPER, marker + "-child"])
    session = [python, "-c", SLEEPER, marker + "-session"]
    subprocess.Popen(session, start_new_session=True)
    while True:
        pass
`;

/** Processes whose command line holds `marker` (zombies count as gone). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) continue;
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${entry}/stat`, "utf8"))) continue;
      found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

let library: TempLibrary;
let markers: string;
let server: SpawnedStdioServer;
let tools: GateTools;
let listener: Server;
const marker = `solo-sandbox-marker-${unique()}`;

async function startServer(overrides: Record<string, string> = {}): Promise<SpawnedStdioServer> {
  return spawnStdioServer({
    command: process.execPath,
    args: [MCP],
    env: testEnv(library.dbPath, { ...SECRETS, SOLO_EMBEDDER: "local", SOLO_CRITIC: "off", ...overrides }),
    readyTimeoutMs: 30_000,
  });
}

async function save(on: SpawnedStdioServer, args: Record<string, unknown>) {
  const result = await on.client.callTool(
    { name: "save_function", arguments: { description: "security probe", response_level: "full", ...args } },
    {
      timeout: 120_000,
    },
  );
  const text = JSON.stringify(result);
  for (const needle of NEEDLES) expect(text).not.toContain(needle);
  return saveView({ isError: result.isError === true, body: (result.structuredContent ?? {}) as Record<string, unknown> });
}

beforeAll(async () => {
  library = tempLibrary();
  markers = mkdtempSync(join(tmpdir(), "solo-sandbox-markers-"));
  const config = loadSoloAssetsConfig(testEnv(library.dbPath), process.cwd());
  writeFileSync(config.paths.apiKeyPath, `${FILE_KEY}\n`, { mode: 0o600 });
  const probe = openSoloServices(config);
  tools = await probe.gateTools();
  await probe.dispose();
  listener = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, "0.0.0.0", () => resolve()));
  server = await startServer();
});

afterAll(async () => {
  await server?.close();
  listener?.close();
  // Anything a failed run left behind (only processes this file started carry the marker).
  for (const pid of processesWith(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
  rmSync(markers, { recursive: true, force: true });
  library?.remove();
});

describe("saved code cannot read the server's keys", () => {
  it("finds no key in its environment, in any /proc/<pid>/environ, or in the key file", async () => {
    const config = loadSoloAssetsConfig(testEnv(library.dbPath), process.cwd());
    const files = [config.paths.apiKeyPath, config.paths.settingsPath, config.paths.dbPath];
    const saved = await save(server, { name: "leaked", code: LEAK_PROBE, test_cases: [{ input: { tag: TAG, files }, expected: [] }] });
    const test = step(saved, "test");
    // The key file is still there for the server itself.
    expect(readFileSync(config.paths.apiKeyPath, "utf8")).toBe(`${FILE_KEY}\n`);
    if (!tools.sandbox.kind) {
      // Documented: without a sandbox, tests are not run.
      expect(test.outcome).toBe("sandbox_unavailable");
      expect(saved.status).toBe("unverified");
      return;
    }
    expect(test.cases?.[0], JSON.stringify(test)).toMatchObject({ passed: true });
    expect(saved.status).toBe("active");
  });
});

describe("saved code cannot reach the network", () => {
  it("connects neither to loopback nor to this machine's other addresses", async () => {
    const port = String((listener.address() as AddressInfo).port);
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && !a.internal && a.family === "IPv4")
      .map((a) => a?.address ?? "");
    const addresses = ["127.0.0.1", ...external].map((host) => [host, port]);
    const saved = await save(server, { name: "reachable", code: NETWORK_PROBE, test_cases: [{ input: { addresses }, expected: [] }] });
    const test = step(saved, "test");
    if (!tools.sandbox.kind) {
      expect(saved.status).toBe("unverified");
      return;
    }
    expect(test.sandbox?.network_isolated).toBe(true);
    expect(saved.status, JSON.stringify(test)).toBe("active");
  });
});

describe("without bubblewrap", () => {
  /** A PATH with the tools of the weak fallback and the real ruff and mypy (not their npm fallbacks), but no bwrap. */
  function pathWithoutBwrap(): string {
    const bin = mkdtempSync(join(tmpdir(), "solo-no-bwrap-"));
    for (const tool of ["sh", "unshare", "mount", "prlimit", "setpriv", "env"]) {
      try {
        symlinkSync(execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), join(bin, tool));
      } catch {
        // Not installed: the fallback does without it.
      }
    }
    linkLintAndTypeTools(bin);
    return bin;
  }
  const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

  it("strict (the default) does not run the tests: unverified, sandbox_unavailable, naming apt-get install bubblewrap", async () => {
    const bin = pathWithoutBwrap();
    const strict = await startServer({ PATH: bin, SOLO_PYTHON: python });
    try {
      const saved = await save(strict, {
        name: "never_run",
        code: 'def never_run() -> int:\n    """One."""\n    return 1\n',
        test_cases: [{ input: {}, expected: 1 }],
      });
      expect(saved.status).toBe("unverified");
      const test = step(saved, "test");
      expect(test.outcome).toBe("sandbox_unavailable");
      expect(test.summary).toMatch(/Tests NOT run/);
      expect(test.summary).toContain("apt-get install bubblewrap");
    } finally {
      await strict.close();
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("SOLO_SANDBOX=weak falls back as documented: unshare namespaces, environment still scrubbed, the library's key file hidden", async () => {
    const bin = pathWithoutBwrap();
    // The same probe as 'leaked' under another name: a copy on purpose.
    const weak = await startServer({ PATH: bin, SOLO_PYTHON: python, SOLO_SANDBOX: "weak", SOLO_DUPLICATES: "warn" });
    try {
      const config = loadSoloAssetsConfig(testEnv(library.dbPath), process.cwd());
      const saved = await save(weak, {
        name: "leaked_weak",
        code: LEAK_PROBE.replace("def leaked(", "def leaked_weak("),
        test_cases: [{ input: { tag: TAG, files: [config.paths.apiKeyPath] }, expected: [] }],
      });
      const test = step(saved, "test");
      expect(test.sandbox?.kind, JSON.stringify(test)).toMatch(/^(unshare|process)$/);
      if (test.sandbox?.kind === "unshare") expect(saved.status, JSON.stringify(test)).toBe("active");
      else expect(test.cases?.[0]?.actual).not.toMatch(/environment /);
    } finally {
      await weak.close();
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe("saved code dies at its time limit", () => {
  it("kills the run and every process it started, a child in its own session included", async () => {
    // The sandbox cannot write files out here: the children are seen by their command lines.
    const seen = new Set<string>();
    const watch = setInterval(() => {
      for (const pid of processesWith(marker)) {
        try {
          seen.add(readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`${marker}-session`) ? "session" : "child");
        } catch {
          // Gone.
        }
      }
    }, 50);
    // Its own server with a short test limit (the others keep the default: never cut short on a busy machine).
    const short = await startServer({ SOLO_TEST_TIMEOUT_MS: "3000" });
    const saved = await save(short, { name: "spin", code: SPIN_PROBE, test_cases: [{ input: { marker }, expected: 0 }] }).finally(() => {
      clearInterval(watch);
      return short.close();
    });
    expect(saved.status).toBe("broken");
    expect(saved.rejection?.kind, JSON.stringify(saved.rejection)).toBe("timeout");
    // Both children ran…
    expect([...seen].sort()).toEqual(["child", "session"]);
    // …and none is left.
    await expect.poll(() => processesWith(marker), { timeout: 10_000, interval: 200 }).toEqual([]);
  });
});
