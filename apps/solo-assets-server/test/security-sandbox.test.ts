/**
 * Security review (issue #8, part 5): code saved in solo runs its tests in the sandbox and there
 * cannot read the server's API keys — not in its own environment, not in any process's
 * /proc/<pid>/environ, not in the key file saved from the dashboard — cannot reach the network,
 * and dies at the time limit with every process it started, a child in a new session included.
 * Drives the real bin (dist/mcp.js) over stdio, whose environment holds the secrets.
 *
 * Where `unshare` cannot make namespaces, the documented fallback is checked instead: tests run
 * with network and the report says `network_isolated: false`; the environment is still scrubbed.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo, Server } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSoloConfig } from "../src/config.js";
import { openSoloServices } from "../src/services.js";
import type { GateTools } from "../src/services.js";
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

SLEEPER = "import pathlib, sys, time; pathlib.Path(sys.argv[1]).touch(); time.sleep(99)"


def spin(started: str, marker: str) -> int:
    """Never returns: the sandbox must kill it and its children."""
    python = sys.executable
    subprocess.Popen([python, "-c", SLEEPER, started + ".child", marker])
    session = [python, "-c", SLEEPER, started + ".session", marker]
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
    env: testEnv(library.dbPath, { ...SECRETS, SOLO_EMBEDDER: "local", SOLO_CRITIC: "off", SOLO_TEST_TIMEOUT_MS: "3000", ...overrides }),
    readyTimeoutMs: 30_000,
  });
}

async function save(on: SpawnedStdioServer, args: Record<string, unknown>) {
  const result = await on.client.callTool({ name: "save_function", arguments: { description: "security probe", response_level: "full", ...args } }, undefined, {
    timeout: 120_000,
  });
  const text = JSON.stringify(result);
  for (const needle of NEEDLES) expect(text).not.toContain(needle);
  return saveView({ isError: result.isError === true, body: (result.structuredContent ?? {}) as Record<string, unknown> });
}

beforeAll(async () => {
  library = tempLibrary();
  markers = mkdtempSync(join(tmpdir(), "solo-sandbox-markers-"));
  const config = loadSoloConfig(testEnv(library.dbPath));
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
    const config = loadSoloConfig(testEnv(library.dbPath));
    const files = [config.paths.apiKeyPath, config.paths.settingsPath, config.paths.dbPath];
    const saved = await save(server, { name: "leaked", code: LEAK_PROBE, test_cases: [{ input: { tag: TAG, files }, expected: [] }] });
    const test = step(saved, "test");
    expect(test.cases?.[0], JSON.stringify(test)).toMatchObject({ passed: !!tools.sandbox.namespaces });
    expect(saved.status).toBe(tools.sandbox.namespaces ? "active" : "broken");
    // The key file is still there for the server itself.
    expect(readFileSync(config.paths.apiKeyPath, "utf8")).toBe(`${FILE_KEY}\n`);
    if (!tools.sandbox.namespaces) {
      // Documented fallback: the environment is scrubbed, but the file system is not isolated.
      expect(test.cases?.[0]?.actual).not.toMatch(/environment /);
    }
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
    expect(test.sandbox?.network_isolated).toBe(tools.sandbox.unshare !== undefined);
    if (tools.sandbox.unshare) {
      expect(saved.status, JSON.stringify(test)).toBe("active");
    } else {
      // Documented fallback: without unshare, tests run with network.
      expect(saved.status).toBe("broken");
    }
  });

  it("falls back as documented with SOLO_NETWORK_ISOLATION=off: network reachable, network_isolated false, environment still scrubbed", async () => {
    const off = await startServer({ SOLO_NETWORK_ISOLATION: "off" });
    try {
      const port = String((listener.address() as AddressInfo).port);
      const saved = await save(off, { name: "reachable_off", code: NETWORK_PROBE.replace("def reachable(", "def reachable_off("), test_cases: [{ input: { addresses: [["127.0.0.1", port]] }, expected: [] }] });
      expect(step(saved, "test").sandbox?.network_isolated).toBe(false);
      expect(step(saved, "test").cases?.[0]?.actual).toBe(JSON.stringify([`127.0.0.1:${port}`]));
      const env = await save(off, { name: "leaked_off", code: LEAK_PROBE.replace("def leaked(", "def leaked_off("), test_cases: [`assert not any(${JSON.stringify(TAG)} in v for v in os.environ.values())`] });
      expect(env.status).toBe("active");
    } finally {
      await off.close();
    }
  });
});

describe("saved code dies at its time limit", () => {
  it("kills the run and every process it started, a child in its own session included", async () => {
    const started = join(markers, "spin");
    const saved = await save(server, { name: "spin", code: SPIN_PROBE, test_cases: [{ input: { started, marker }, expected: 0 }] });
    expect(saved.status).toBe("broken");
    expect(saved.rejection?.kind, JSON.stringify(saved.rejection)).toBe("timeout");
    // Both children ran…
    expect(existsSync(`${started}.child`)).toBe(true);
    expect(existsSync(`${started}.session`)).toBe(true);
    // …and none is left.
    await expect.poll(() => processesWith(marker), { timeout: 10_000, interval: 200 }).toEqual([]);
  });
});
