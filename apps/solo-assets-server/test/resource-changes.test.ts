/**
 * The library's functions as resources (`solo://functions/{name}`) and their change
 * notifications, through the built bin (`dist/mcp.js`) over stdio in both eras (issue 15 item 4):
 * a 2025-11-25 client subscribes with resources/subscribe, a 2026-07-28 client opens
 * subscriptions/listen. resources/list names the active functions; a read is the function's page
 * (signature, status, version, source). A new version saved through save_function is announced;
 * a save refused before the gate is not; a new active function changes the list (announced in
 * the 2026-07-28 era). Core compares content hashes every POLL_MS here (2 s by default): each wait below
 * allows 30 s. The saves run the real quality gate (tests in the sandbox). Build first:
 * `pnpm --filter @local-mcp/solo-assets-server build`.
 */
import { fileURLToPath } from "node:url";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { callTool, tempLibrary, testEnv, type TempLibrary } from "./helpers/test-library.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const ADD_ONE = "solo://functions/add_one";
const ADD_TWO = "solo://functions/add_two";
/** Longest wait for a notification: many polls on a loaded machine (this file runs beside another). */
const WAIT = { timeout: 30_000, interval: 50 };
/** The server compares watched resources this often here (LOCAL_MCP_RESOURCE_POLL_MS; 2 s by default). */
const POLL_MS = 200;
/** Several polls, so the watch has compared what changed (or did not) before. */
const ONE_POLL_AND_MORE = 5 * POLL_MS;

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const adder = (name: string, k: number, doc: string) => `def ${name}(x: int) -> int:\n    """${doc}"""\n    return x + ${k}\n`;

async function save(client: Client, name: string, code: string, extra: Record<string, unknown> = {}) {
  const k = name === "add_two" ? 2 : 1;
  return callTool(client, "save_function", {
    name,
    code,
    description: `Add ${k} to a number`,
    test_cases: [{ input: { x: 1 }, expected: 1 + k }],
    ...extra,
  });
}

async function text(client: Client, uri: string): Promise<string> {
  const content = (await client.readResource({ uri })).contents[0];
  if (!content || !("text" in content)) throw new Error(`${uri}: no text`);
  return content.text;
}

describe.each(["legacy", "modern"] as const)("solo-assets-mcp over stdio, %s era: solo://functions resources", (era) => {
  it("lists the active functions; a new version is announced, a refused save is not, a new function changes the list", async () => {
    const library: TempLibrary = tempLibrary();
    cleanups.push(() => library.remove());
    const server: SpawnedStdioServer = await spawnStdioServer({
      command: process.execPath,
      args: [MCP],
      env: testEnv(library.dbPath, { LOCAL_MCP_RESOURCE_POLL_MS: String(POLL_MS) }),
      era,
      readyTimeoutMs: 60_000,
    });
    cleanups.push(async () => {
      await server.close(15_000);
      server.assertCleanStdout();
    });
    const { client } = server;
    expect(client.getProtocolEra()).toBe(era);
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler("notifications/resources/updated", (n) => void updated.push(n.params.uri));
    client.setNotificationHandler("notifications/resources/list_changed", () => void (listChanged += 1));

    // add_one passes the gate; scratch is stored unverified (its tests skipped): only add_one is listed.
    expect(await save(client, "add_one", adder("add_one", 1, "Add one to x."))).toMatchObject({
      isError: false,
      body: { version: 1, status: "active" },
    });
    expect(
      await callTool(client, "save_function", {
        name: "scratch",
        code: adder("scratch", 3, "Draft."),
        description: "A draft",
        skip_tests: true,
      }),
    ).toMatchObject({
      body: { status: "unverified" },
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["solo://functions/{name}"]);
    expect((await client.listResources()).resources).toEqual([
      { uri: ADD_ONE, name: "add_one", title: "def add_one(x: int) -> int", description: "Add 1 to a number", mimeType: "text/markdown" },
    ]);

    if (era === "legacy") await client.subscribeResource({ uri: ADD_ONE });
    else await client.listen({ resourceSubscriptions: [ADD_ONE], resourcesListChanged: true });
    // Reading after the watch started queues behind its first look (its baseline).
    const first = await text(client, ADD_ONE);
    expect(first).toContain("- status: active — passed the quality gate");
    expect(first).toContain("- version: 1 ");
    expect(first).toContain('"""Add one to x."""');
    expect(await text(client, "solo://functions/scratch")).toContain("- status: unverified");

    // A new version through save_function: announced, and read as such.
    expect(await save(client, "add_one", adder("add_one", 1, "Return x plus one."))).toMatchObject({
      body: { version: 2, status: "active" },
    });
    await expect.poll(() => updated, WAIT).toEqual([ADD_ONE]);
    const second = await text(client, ADD_ONE);
    expect(second).toContain("- version: 2 ");
    expect(second).toContain('"""Return x plus one."""');

    // A save refused before the gate stores nothing: nothing to announce.
    expect(await callTool(client, "save_function", { name: "add_one", code: "x = 1\n", description: "Add 1 to a number" })).toMatchObject({
      isError: true,
      body: { error: { code: "INVALID_INPUT" } },
    });
    await new Promise((resolve) => setTimeout(resolve, ONE_POLL_AND_MORE));
    expect(updated).toEqual([ADD_ONE]);
    expect(listChanged).toBe(0);

    // A new active function: the list changed (announced in the 2026-07-28 era only).
    expect(await save(client, "add_two", adder("add_two", 2, "Add two to x."))).toMatchObject({ body: { version: 1, status: "active" } });
    if (era === "modern") await expect.poll(() => listChanged, WAIT).toBeGreaterThanOrEqual(1);
    else await new Promise((resolve) => setTimeout(resolve, ONE_POLL_AND_MORE));
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([ADD_ONE, ADD_TWO]);
    if (era === "legacy") expect(listChanged).toBe(0);
    expect(updated).toEqual([ADD_ONE]);

    // Unknown and malformed names are not found (-32602 in both eras).
    await expect(client.readResource({ uri: "solo://functions/nothing_here" })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: "solo://functions/not%20a%20name" })).rejects.toMatchObject({ code: -32602 });
  }, 180_000);
});
