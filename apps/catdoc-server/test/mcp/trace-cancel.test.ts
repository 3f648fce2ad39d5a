/**
 * Cancellation stops a long catdoc_trace. The built bin runs over stdio with the v2 SDK client;
 * a generated graph makes the trace slow: 200 functors A → M and 200 functors M → B give 40,000
 * paths into B, and each looks for an unreachable object across a chain of 2,000 objects (about
 * 20 s of work in all). The client aborts the call once the trace reports progress (so it is
 * running): in the handshake era over stdio that sends notifications/cancelled; in the
 * 2026-07-28 era over --http it closes the request's stream. Either way:
 *  1. the work observed the abort: the server's CPU time stays flat afterwards (a trace that ran
 *     on would burn a core), and the trace had got through a small part of its paths;
 *  2. nothing was half-written: category.yaml is byte for byte what it was (the trace only reads);
 *  3. the server answers the next call.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuSeconds, spawnHttpServer, spawnStdioServer } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { stringify } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs, writeProject } from "./helpers.js";

const BIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const FUNCTORS = 200;
const CHAIN = 2_000;
const tempDir = useTempDirs();
const running: { close: () => Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A → M → B through FUNCTORS parallel functors each way; B is a chain b0 → … and an isolated bt. */
function slowTraceYaml(): string {
  const object = (id: string) => ({ id, title: id, domain: "test" });
  const identity = (id: string) => ({ id: `id-${id}`, name: `id_${id}`, source: id, target: id, metadata: { isIdentity: true } });
  const chain = Array.from({ length: CHAIN }, (_, i) => `b${i}`);
  const categories = [
    { id: "A", name: "A", objects: [object("a0")], morphisms: [identity("a0")] },
    { id: "M", name: "M", objects: [object("m0")], morphisms: [identity("m0")] },
    {
      id: "B",
      name: "B",
      objects: [...chain, "bt"].map(object),
      morphisms: [
        ...[...chain, "bt"].map(identity),
        ...chain.slice(1).map((id, i) => ({ id: `step-${i}`, name: "next", source: `b${i}`, target: id })),
      ],
    },
  ];
  const functors = Array.from({ length: FUNCTORS }, (_, i) => [
    {
      id: `F${i}`,
      name: `F${i}`,
      sourceCategory: "A",
      targetCategory: "M",
      objectMapping: { a0: "m0" },
      morphismMapping: { "id-a0": "id-m0" },
    },
    {
      id: `G${i}`,
      name: `G${i}`,
      sourceCategory: "M",
      targetCategory: "B",
      objectMapping: { m0: "b0" },
      morphismMapping: { "id-m0": "id-b0" },
    },
  ]).flat();
  return stringify({ categories, functors, naturalTransformations: [] }, { lineWidth: 0 });
}

async function cpuOver(pid: number, ms: number): Promise<number> {
  const before = cpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return cpuSeconds(pid) - before;
}

interface Started {
  client: Client;
  pid: number;
}

/** The bin over stdio in the handshake era, or over --http with a client pinned to 2026-07-28. */
const TRANSPORTS = {
  "the handshake era over stdio": async (env: Record<string, string>): Promise<Started> => {
    const server = await spawnStdioServer({ command: process.execPath, args: [BIN], env, era: "legacy" });
    running.push(server);
    expect(server.client.getProtocolEra()).toBe("legacy");
    return { client: server.client, pid: server.child.pid as number };
  },
  "the 2026-07-28 era over --http": async (env: Record<string, string>): Promise<Started> => {
    const server = await spawnHttpServer({ command: process.execPath, args: [BIN], env });
    running.push(server);
    const client = await server.connect("modern");
    expect(client.getProtocolEra()).toBe("modern");
    return { client, pid: server.child.pid as number };
  },
};

describe.runIf(process.platform === "linux").each(Object.entries(TRANSPORTS))("cancelling catdoc_trace in %s", (_name, start) => {
  it("stops the trace loop, leaves the project as it was, and answers the next call", async () => {
    const root = await tempDir("catdoc-cancel-");
    await writeProject(root, slowTraceYaml());
    const yamlBefore = await readFile(join(root, ".catdoc", "category.yaml"));
    const { client, pid } = await start({ CATDOC_PROJECT_PATH: root, LOCAL_MCP_LOG_LEVEL: "warn" });
    // Load the project first, so the call below spends its time in the trace itself.
    expect((await client.callTool({ name: "catdoc_list_categories", arguments: {} })).isError).toBeFalsy();

    const controller = new AbortController();
    let progressAtAbort = 0;
    let aborted: () => void = () => undefined;
    const abortedOnce = new Promise<void>((resolve) => (aborted = resolve));
    const call = client.callTool(
      { name: "catdoc_trace", arguments: { sourceId: "a0", targetId: "bt" } },
      {
        signal: controller.signal,
        timeout: 120_000,
        onprogress: ({ progress }) => {
          if (controller.signal.aborted) return;
          progressAtAbort = progress;
          controller.abort("the test cancels the trace");
          aborted();
        },
      },
    );
    const outcome = call.then(
      () => "answered",
      () => "rejected",
    );
    // The trace reports progress between its slices of work: it is running when the abort goes out.
    await Promise.race([abortedOnce, outcome]);
    expect(await outcome).toBe("rejected");

    // 1. The work observed the abort: it had taken few of its 40,000 paths, and the process idles.
    expect(progressAtAbort).toBeGreaterThan(0);
    expect(progressAtAbort).toBeLessThan((FUNCTORS * FUNCTORS) / 4);
    // An idle server uses a few hundredths of a second; a trace running on, even on a shared and
    // busy machine, most of the window.
    const cpu = await cpuOver(pid, 2_000);
    console.log(
      `${_name}: catdoc_trace cancelled after ${progressAtAbort} of ${FUNCTORS * FUNCTORS} paths; CPU in the next 2 s: ${cpu.toFixed(2)} s`,
    );
    expect(cpu, `catdoc-mcp used ${cpu.toFixed(2)} s of CPU in the 2 s after the cancellation`).toBeLessThan(0.25);
    // 2. Nothing was written.
    expect((await readFile(join(root, ".catdoc", "category.yaml"))).equals(yamlBefore)).toBe(true);
    // 3. The server answers the next call, a trace included.
    const next = await client.callTool({ name: "catdoc_trace", arguments: { sourceId: "b0", targetId: "b3" } });
    expect(next.structuredContent).toMatchObject({ mode: "within", found: true, length: 3 });
  }, 120_000);
});
