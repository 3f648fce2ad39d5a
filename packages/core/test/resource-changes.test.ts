/**
 * Resource change notifications (resource-watch.ts), in both eras and through the real
 * transports: a 2025-era client hears `notifications/resources/updated` for what it subscribed;
 * a 2026-07-28 client hears what its `subscriptions/listen` names, the list included — over
 * --http (runHttp) and over stdio (runStdio on pipes, raw JSON-RPC).
 */
import { mkdtemp, readdir, readFile, rename, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServer, defineResource, defineResourceTemplate, silentLogger, type ServerDefinition } from "../src/index.js";
import { runHttp } from "../src/server/run-http.js";
import { runStdio } from "../src/server/run-stdio.js";
import { connectInProcess } from "../src/testing/index.js";

const MODERN = "2026-07-28";
let dir: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "resource-changes-"));
  await writeFile(join(dir, "note.md"), "first");
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

/** A note file and a folder of notes, as resources; compared every 50 ms. */
const definition = (): ServerDefinition => ({
  name: "notes",
  version: "0",
  tools: [],
  logger: silentLogger,
  resourcePollMs: 50,
  resources: [
    defineResource({
      uri: "test://note",
      name: "note",
      mimeType: "text/markdown",
      read: async () => ({ text: await readFile(join(dir, "note.md"), "utf8") }),
    }),
  ],
  resourceTemplates: [
    defineResourceTemplate({
      uriTemplate: "test://notes/{name}",
      name: "notes",
      mimeType: "text/markdown",
      list: async () => (await readdir(dir)).map((name) => ({ uri: `test://notes/${name}`, name })),
      read: async ({ name = "" }) => ({ text: await readFile(join(dir, name), "utf8") }),
    }),
  ],
});

/** Waits until `check` is true, failing after `ms`. */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  await expect.poll(check, { timeout: ms, interval: 20 }).toBe(true);
}

/** Lets the watch compare a few times (for "nothing was sent" checks). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe("2025 era: resources/subscribe", () => {
  it("a subscribed resource whose content changes is announced; the same bytes or an unsubscribed one are not", async () => {
    const conn = await connectInProcess(definition());
    cleanups.push(() => conn.close());
    const updated: string[] = [];
    conn.client.setNotificationHandler("notifications/resources/updated", (n) => void updated.push(n.params.uri));
    expect(conn.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: false });
    await conn.client.subscribeResource({ uri: "test://note" });
    // Right after the answer: the subscription already compares against the content before it.
    // (Written by rename: an in-place write truncates first, and a poll between the truncation and
    // the write sees — and announces — the empty file, a second update on a loaded machine.)
    await writeFile(join(dir, "note.md.tmp"), "second");
    await rename(join(dir, "note.md.tmp"), join(dir, "note.md"));
    await until(() => updated.length === 1);
    expect(updated).toEqual(["test://note"]);
    // Touched, same bytes: no change.
    await utimes(join(dir, "note.md"), new Date(), new Date(Date.now() + 5_000));
    await writeFile(join(dir, "note.md.tmp"), "second");
    await rename(join(dir, "note.md.tmp"), join(dir, "note.md"));
    await settle();
    expect(updated).toHaveLength(1);
    await conn.client.unsubscribeResource({ uri: "test://note" });
    await writeFile(join(dir, "note.md"), "third");
    await settle();
    expect(updated).toHaveLength(1);
    expect(conn.created.resourceWatch?.watching).toEqual({ resources: [], list: false });
  });
});

describe("the watch's bound", () => {
  it("watches at most MAX_WATCHED_RESOURCES resources at once; a refused watch releases nothing", async () => {
    const { MAX_WATCHED_RESOURCES, ResourceWatch } = await import("../src/index.js");
    let reads = 0;
    const watch = new ResourceWatch({ versionOf: async () => String((reads += 1)), listVersion: async () => "", pollMs: 60_000 });
    const releases = Array.from({ length: MAX_WATCHED_RESOURCES + 50 }, (_, i) => watch.watch(`test://many/${i}`));
    expect(watch.watching.resources).toHaveLength(MAX_WATCHED_RESOURCES);
    releases.at(-1)?.();
    expect(watch.watching.resources).toHaveLength(MAX_WATCHED_RESOURCES);
    releases[0]?.();
    expect(watch.watching.resources).toHaveLength(MAX_WATCHED_RESOURCES - 1);
    watch.close();
  });
});

describe("2026-07-28 era: subscriptions/listen", () => {
  it("over --http: the listen hears an update of what it names and a change of the list; closing it stops the watching", async () => {
    const created = createServer(definition());
    const handle = await runHttp(() => created, { port: 0, logger: silentLogger });
    cleanups.push(() => handle.close());
    const client = new Client({ name: "modern", version: "0" }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    cleanups.push(() => client.close());
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler("notifications/resources/updated", (n) => void updated.push(n.params.uri));
    client.setNotificationHandler("notifications/resources/list_changed", () => void (listChanged += 1));
    const subscription = await client.listen({ resourceSubscriptions: ["test://note"], resourcesListChanged: true });
    await until(() => created.resourceWatch?.watching.list === true);
    await settle();
    await writeFile(join(dir, "note.md"), "second");
    await until(() => updated.includes("test://note"));
    await writeFile(join(dir, "added.md"), "new");
    await until(() => listChanged >= 1);
    await subscription.close();
    await until(() => created.resourceWatch?.watching.resources.length === 0 && !created.resourceWatch.watching.list);
  });

  it("over stdio: a listen hears the update; its cancel ends the watching", async () => {
    const created = createServer(definition());
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: { id?: number; method?: string; params?: { uri?: string } }[] = [];
    let text = "";
    stdout.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const parts = text.split("\n");
      text = parts.pop() ?? "";
      for (const line of parts) if (line.trim()) lines.push(JSON.parse(line) as (typeof lines)[number]);
    });
    const handle = await runStdio(() => created, { stdin, stdout, exitOnClose: false, logger: silentLogger });
    cleanups.push(() => handle.shutdown("test end"));
    const envelope = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { resourceSubscriptions: ["test://note"] }, _meta: envelope } })}\n`,
    );
    await until(() => lines.some((l) => l.method === "notifications/subscriptions/acknowledged"));
    await until(() => created.resourceWatch?.watching.resources.includes("test://note") === true);
    await settle();
    await writeFile(join(dir, "note.md"), "second");
    await until(() => lines.some((l) => l.method === "notifications/resources/updated" && l.params?.uri === "test://note"));
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: envelope } })}\n`);
    await until(() => created.resourceWatch?.watching.resources.length === 0);
  });
});
