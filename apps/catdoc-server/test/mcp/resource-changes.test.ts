/**
 * Resource change notifications through the built bin (`dist/mcp.js`) over stdio, in both eras
 * (issue 15 item 4): a 2025-11-25 client subscribes with resources/subscribe, a 2026-07-28 client
 * opens subscriptions/listen. An object's document edited on disk is announced; the same bytes
 * written again are not; an object added to category.yaml changes the graph (and, in the
 * 2026-07-28 era, the resource list). Core compares content hashes every POLL_MS here (2 s by default): each
 * wait below allows ~10 s. Build first: `pnpm --filter @local-mcp/catdoc-server build`.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs, writeProject } from "./helpers.js";

const BIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const tempDir = useTempDirs();
const servers: SpawnedStdioServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
    server.assertCleanStdout();
  }
});

const OBJECT = "catdoc://objects/alpha";
const GRAPH = "catdoc://graph";
/** Longest wait for a notification: many polls on a loaded machine. */
const WAIT = { timeout: 10_000, interval: 50 };
/** The server compares watched resources this often here (LOCAL_MCP_RESOURCE_POLL_MS; 2 s by default). */
const POLL_MS = 200;
/** Several polls, so the watch has compared what was written before what comes next. */
const ONE_POLL_AND_MORE = 5 * POLL_MS;

const CATEGORY = `categories:
  - id: notes
    name: Notes
    objects:
      - id: alpha
        title: Alpha
        domain: test
      - id: beta
        title: Beta
        domain: test
    morphisms:
      - id: alpha-to-beta
        name: leads to
        source: alpha
        target: beta
`;
const GAMMA = `      - id: gamma
        title: Gamma
        domain: test
`;
const document = (body: string) => `---\nid: alpha\ntitle: Alpha\n---\n# Alpha\n\n${body}\n`;

/** A project of two objects, alpha with its document in docs/alpha.md. */
async function project(): Promise<string> {
  return writeProject(await tempDir(), CATEGORY, { files: { "docs/alpha.md": document("The first draft.") } });
}

/** Saves a file the way many editors do: write a sibling, then rename it over the original. */
async function saveLikeAnEditor(path: string, text: string): Promise<void> {
  await writeFile(`${path}.swp`, text);
  await rename(`${path}.swp`, path);
}

describe.each(["legacy", "modern"] as const)("catdoc-mcp over stdio, %s era: resource change notifications", (era) => {
  it("an edited document and an object added to category.yaml are announced; the same bytes again are not", async () => {
    const root = await project();
    const server = await spawnStdioServer({
      command: process.execPath,
      args: [BIN],
      env: { CATDOC_PROJECT_PATH: root, LOCAL_MCP_LOG_LEVEL: "warn", LOCAL_MCP_RESOURCE_POLL_MS: String(POLL_MS) },
      era,
    });
    servers.push(server);
    const { client } = server;
    expect(client.getProtocolEra()).toBe(era);
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler("notifications/resources/updated", (n) => void updated.push(n.params.uri));
    client.setNotificationHandler("notifications/resources/list_changed", () => void (listChanged += 1));

    // The object first, then the graph: each poll compares them in this order.
    if (era === "legacy") {
      expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
      await client.subscribeResource({ uri: OBJECT });
      await client.subscribeResource({ uri: GRAPH });
    } else {
      const subscription = await client.listen({ resourceSubscriptions: [OBJECT, GRAPH], resourcesListChanged: true });
      expect(subscription.honoredFilter).toMatchObject({ resourceSubscriptions: [OBJECT, GRAPH], resourcesListChanged: true });
    }
    // Reading both after the watch started queues behind its first look (its baseline).
    expect((await client.readResource({ uri: OBJECT })).contents[0]).toMatchObject({ text: document("The first draft.") });
    const graphBefore = (await client.readResource({ uri: GRAPH })).contents[0];

    // An editor saves the document: announced, and a read returns the new text.
    const path = join(root, "docs", "alpha.md");
    await saveLikeAnEditor(path, document("The second draft."));
    await expect.poll(() => updated, WAIT).toEqual([OBJECT]);
    expect((await client.readResource({ uri: OBJECT })).contents[0]).toMatchObject({ text: document("The second draft.") });

    // The same bytes saved again (a new file, a new mtime): nothing to announce.
    await saveLikeAnEditor(path, document("The second draft."));
    await new Promise((resolve) => setTimeout(resolve, ONE_POLL_AND_MORE));

    // An object added to category.yaml: the graph changed (the object before it was compared
    // again in the same poll, so a false update of it would have arrived first).
    const yaml = join(root, ".catdoc", "category.yaml");
    await saveLikeAnEditor(yaml, (await readFile(yaml, "utf8")).replace("    morphisms:\n", `${GAMMA}    morphisms:\n`));
    await expect.poll(() => updated, WAIT).toEqual([OBJECT, GRAPH]);
    const graphAfter = (await client.readResource({ uri: GRAPH })).contents[0];
    expect(graphAfter && "text" in graphAfter ? graphAfter.text : "").toContain('"gamma"');
    expect(graphAfter?._meta).not.toEqual(graphBefore?._meta);
    if (era === "modern") {
      // The list gained catdoc://objects/gamma.
      await expect.poll(() => listChanged, WAIT).toBeGreaterThanOrEqual(1);
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain("catdoc://objects/gamma");
    } else {
      // 2025 clients are told the list does not announce changes, and are sent none.
      expect(client.getServerCapabilities()?.resources?.listChanged).toBe(false);
      expect(listChanged).toBe(0);
    }
    expect(updated).toEqual([OBJECT, GRAPH]);
  }, 60_000);
});
