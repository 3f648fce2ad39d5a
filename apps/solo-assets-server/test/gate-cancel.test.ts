/**
 * Cancellation stops the quality gate's subprocesses. The built bin runs over stdio with the v2
 * SDK client; save_function gets a function whose test case starts a child process (marked by
 * an argument, so it can be found: inside the sandbox's PID namespace its own pid means nothing
 * out here) and then sleeps for ten minutes, under a test time limit of five. Once the marked
 * process is running, the client aborts the call: in the handshake era over stdio that sends
 * notifications/cancelled; in the 2026-07-28 era over --http it closes the request's stream.
 * Either way:
 *  1. the work observed the abort: every process the server had started (the sandbox, the test
 *     harness, the child it started) is gone within seconds, the whole process group killed;
 *  2. nothing was half-written: the function is not in the library, and the gate's scratch
 *     folders are removed;
 *  3. the server answers the next call: a save of a clean function passes the gate.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnHttpServer, spawnStdioServer } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedTypeCache } from "./helpers/gate-tools.js";
import { tempLibrary, testEnv, type TempLibrary } from "./helpers/test-library.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));

const SLEEPY = [
  "import subprocess",
  "import sys",
  "import time",
  "",
  "",
  "def sleepy(marker: str) -> int:",
  '    """Starts a marked child that sleeps, then sleeps too."""',
  '    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", marker])',
  "    time.sleep(600)",
  "    return 0",
  "",
].join("\n");

const IS_TEXT =
  'import six\n\n\ndef is_text(value: object) -> bool:\n    """True for str."""\n    return isinstance(value, six.string_types)\n';

const DOUBLE = 'def double(x: int) -> int:\n    """Twice x."""\n    return 2 * x\n';

/** A process's parent pid, or undefined when it is gone (a zombie counts as gone). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" ? undefined : Number(fields[1]);
  } catch {
    return undefined;
  }
}

const livePids = () =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);

/** Every live process below `root` in the process tree. */
function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of livePids()) {
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  for (let queue = [root]; queue.length > 0;) {
    const next = children.get(queue.shift() as number) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** Live processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  return livePids().filter((pid) => {
    try {
      return parentOf(pid) !== undefined && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  });
}

interface Started {
  client: Client;
  pid: number;
  close: () => Promise<unknown>;
}

/** The bin over stdio in the handshake era, or over --http with a client pinned to 2026-07-28. */
const TRANSPORTS = {
  "the handshake era over stdio": async (env: Record<string, string>): Promise<Started> => {
    const server = await spawnStdioServer({ command: process.execPath, args: [MCP], env, era: "legacy", readyTimeoutMs: 30_000 });
    expect(server.client.getProtocolEra()).toBe("legacy");
    return { client: server.client, pid: server.child.pid as number, close: () => server.close() };
  },
  "the 2026-07-28 era over --http": async (env: Record<string, string>): Promise<Started> => {
    const server = await spawnHttpServer({ command: process.execPath, args: [MCP], env, readyTimeoutMs: 30_000 });
    const client = await server.connect("modern");
    expect(client.getProtocolEra()).toBe("modern");
    return { client, pid: server.child.pid as number, close: () => server.close() };
  },
};

describe.runIf(process.platform === "linux").each(Object.entries(TRANSPORTS))("cancelling save_function in %s", (name, start) => {
  let library: TempLibrary;
  let scratch: string;
  let server: Started | undefined;

  beforeAll(async () => {
    library = tempLibrary();
    // The server's own temporary folder, so the gate's scratch folders can be counted.
    scratch = await mkdtemp(join(tmpdir(), "solo-cancel-tmp-"));
  });

  afterAll(async () => {
    await server?.close();
    library?.remove();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("kills the gate's test processes, stores nothing, and answers the next call", async () => {
    expect(existsSync(MCP), `${MCP} is missing: build the app first (pnpm --filter @local-mcp/solo-assets-server build)`).toBe(true);
    server = await start(testEnv(library.dbPath, { SOLO_TEST_TIMEOUT_MS: "300000", TMPDIR: scratch }));
    const { client, pid: serverPid } = server;
    const save = (args: Record<string, unknown>, options: { signal?: AbortSignal } = {}) =>
      client.callTool({ name: "save_function", arguments: { description: "test function", ...args } }, { timeout: 300_000, ...options });
    const marker = `solo-cancel-${process.pid}-${Date.now()}`;
    const controller = new AbortController();
    const outcome = save(
      { name: "sleepy", code: SLEEPY, test_cases: [{ input: { marker }, expected: 0 }] },
      { signal: controller.signal },
    ).then(
      (result) => `answered: ${JSON.stringify(result.structuredContent)}`,
      () => "rejected",
    );
    // The gate is running the test: the marked child is alive (lint, types and the environment came first).
    await expect.poll(() => processesWith(marker).length, { timeout: 120_000, interval: 100 }).toBeGreaterThan(0);
    const running = descendantsOf(serverPid);
    expect(running.length).toBeGreaterThanOrEqual(2); // the sandbox and the processes inside it
    controller.abort("the test cancels the save");
    expect(await outcome).toBe("rejected");

    // 1. Every process of the gate's run is gone, long before the 5 min test limit or the 10 min sleep.
    const stopped = Date.now();
    await expect.poll(() => running.filter((pid) => parentOf(pid) !== undefined), { timeout: 10_000, interval: 50 }).toEqual([]);
    expect(processesWith(marker)).toEqual([]);
    console.log(
      `${name}: save_function cancelled: ${running.length} process(es) of the gate gone ${Date.now() - stopped} ms after the abort`,
    );

    // 2. Nothing stored, no scratch folder left behind.
    const got = await client.callTool({ name: "get_function", arguments: { name: "sleepy" } });
    expect(got).toMatchObject({ isError: true, structuredContent: { error: { code: "NOT_FOUND" } } });
    const listed = await client.callTool({ name: "list_functions", arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).not.toContain("sleepy");
    await expect.poll(async () => (await readdir(scratch)).filter((name) => name.startsWith("solo-test-")), { timeout: 5_000 }).toEqual([]);

    // 3. The server answers the next call, through the whole gate.
    const next = await save({ name: "double", code: DOUBLE, test_cases: [{ input: { x: 2 }, expected: 4 }] });
    expect(next.isError).toBeFalsy();
    expect(next.structuredContent).toMatchObject({ name: "double", status: "active" });
  }, 300_000);
});

describe.runIf(process.platform === "linux")("cancelling one of two saves that share an environment build", () => {
  let library: TempLibrary;
  let envs: string;
  let server: Started | undefined;

  beforeAll(async () => {
    library = tempLibrary();
    // A fresh pool, so the environment is built while both saves wait for it (one build, shared).
    envs = seedTypeCache(await mkdtemp(join(tmpdir(), "solo-cancel-envs-")));
  });

  afterAll(async () => {
    await server?.close();
    library?.remove();
    if (envs) await rm(envs, { recursive: true, force: true });
  });

  it("leaves the build to the save still waiting for it, which passes the gate", async () => {
    server = await TRANSPORTS["the handshake era over stdio"](testEnv(library.dbPath, { SOLO_ENVS_DIR: envs }));
    const { client } = server;
    const staging = () => readdirSync(envs).filter((name) => name.startsWith(".building-"));
    const said: string[] = [];
    const save = (name: string, options: { signal?: AbortSignal; onprogress?: (p: { message?: string }) => void } = {}) =>
      client.callTool(
        {
          name: "save_function",
          arguments: {
            name,
            description: "test function",
            code: IS_TEXT.replaceAll("is_text", name),
            dependencies: ["six"],
            test_cases: [{ input: { value: "x" }, expected: true }],
          },
        },
        { timeout: 300_000, ...options },
      );
    // The first save starts the build; the second joins it (it has reached its tests while the
    // staging folder still exists); then the first is cancelled.
    const controller = new AbortController();
    const first = save("first_is_text", { signal: controller.signal }).then(
      () => "answered",
      () => "rejected",
    );
    await expect.poll(() => staging().length, { timeout: 120_000, interval: 20 }).toBeGreaterThan(0);
    const second = save("second_is_text", { onprogress: ({ message }) => said.push(message ?? "") });
    await expect.poll(() => said.includes("tests"), { timeout: 120_000, interval: 20 }).toBe(true);
    expect(staging().length, "the build ended before the second save joined it").toBeGreaterThan(0);
    controller.abort("the test cancels the first save");
    expect(await first).toBe("rejected");

    const result = await second;
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ name: "second_is_text", status: "active" });
    // One environment, complete; no staging folder left; the cancelled save stored nothing.
    expect(staging()).toEqual([]);
    expect(readdirSync(envs).filter((name) => existsSync(join(envs, name, ".solo-env.json")))).toHaveLength(1);
    expect(await client.callTool({ name: "get_function", arguments: { name: "first_is_text" } })).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "NOT_FOUND" } },
    });
  }, 300_000);
});
