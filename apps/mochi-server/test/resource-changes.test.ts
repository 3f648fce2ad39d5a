/**
 * Resource change notifications for the catalog resources through the built bin (`dist/mcp.js`)
 * over stdio, in both eras (issue 15 item 4): a 2025-11-25 client subscribes with
 * resources/subscribe, a 2026-07-28 client opens subscriptions/listen. `mochi index` over an
 * unchanged repository rewrites the same catalog: nothing is announced; over a repository with
 * a new factory function it changes the pattern: announced (and, in the 2026-07-28 era, the
 * list); the catalog removed: the pattern is gone, announced. Core compares content hashes
 * every POLL_MS here (2 s by default): each wait below allows ~10 s. No model is needed. Build first:
 * `pnpm --filter @local-mcp/mochi-server build`.
 */
import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { copyFixtureRepo } from "./helpers/sample-repo.js";
import { resourceText } from "./helpers/resource-text.js";
import { TEST_ENV } from "./helpers/tiny-model.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const PATTERN = "mochi://patterns/factory-function";
/** Longest wait for a notification: many polls on a loaded machine. */
const WAIT = { timeout: 10_000, interval: 50 };
/** The server compares watched resources this often here (LOCAL_MCP_RESOURCE_POLL_MS; 2 s by default). */
const POLL_MS = 200;
/** Several polls, so the watch has compared what was written before what comes next. */
const ONE_POLL_AND_MORE = 5 * POLL_MS;

const NEW_FACTORY = `export interface PaymentServiceOptions {
  currency: string;
}

/** Builds the payment service for one currency. */
export function createPaymentService(options: PaymentServiceOptions) {
  return {
    charge(amount: number): string {
      return \`\${amount} \${options.currency}\`;
    },
  };
}
`;

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `mochi index <repo>` as a user runs it (writes <repo>/.mochi/catalog.json). */
async function mochiIndex(repo: string): Promise<void> {
  await promisify(execFile)(process.execPath, [CLI, "index", repo], { env: { ...process.env, ...TEST_ENV } });
}

describe.each(["legacy", "modern"] as const)("mochi-mcp over stdio, %s era: catalog change notifications", (era) => {
  it("re-indexing the same code announces nothing; a new factory function and a removed catalog are announced", async () => {
    const repo = copyFixtureRepo("mochi-changes-");
    cleanups.push(() => rmSync(repo, { recursive: true, force: true }));
    const catalog = join(repo, ".mochi", "catalog.json");
    await mochiIndex(repo);
    const server: SpawnedStdioServer = await spawnStdioServer({
      command: process.execPath,
      args: [MCP],
      env: { ...TEST_ENV, LOCAL_MCP_LOG_LEVEL: "warn", LOCAL_MCP_RESOURCE_POLL_MS: String(POLL_MS), MOCHI_CATALOG: catalog },
      era,
    });
    cleanups.push(async () => {
      await server.close();
      server.assertCleanStdout();
    });
    const { client } = server;
    expect(client.getProtocolEra()).toBe(era);
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler("notifications/resources/updated", (n) => void updated.push(n.params.uri));
    client.setNotificationHandler("notifications/resources/list_changed", () => void (listChanged += 1));

    if (era === "legacy") await client.subscribeResource({ uri: PATTERN });
    else await client.listen({ resourceSubscriptions: [PATTERN], resourcesListChanged: true });
    // Reading after the watch started queues behind its first look (its baseline).
    const before = resourceText(await client.readResource({ uri: PATTERN }));

    // The same code indexed again: the catalog file is rewritten with the same bytes.
    await mochiIndex(repo);
    await new Promise((resolve) => setTimeout(resolve, ONE_POLL_AND_MORE));
    expect(updated).toEqual([]);
    expect(listChanged).toBe(0);

    // A new factory function, indexed: the pattern changed (a false update from the step before
    // would have arrived first).
    writeFileSync(join(repo, "src", "payment-service.ts"), NEW_FACTORY);
    await mochiIndex(repo);
    await expect.poll(() => updated, WAIT).toEqual([PATTERN]);
    const after = resourceText(await client.readResource({ uri: PATTERN }));
    expect(after).not.toEqual(before);
    expect(after).toContain("payment-service.ts");
    if (era === "modern") await expect.poll(() => listChanged, WAIT).toBeGreaterThanOrEqual(1);

    // The catalog removed: the pattern is gone, which is a change too.
    rmSync(catalog);
    await expect.poll(() => updated, WAIT).toEqual([PATTERN, PATTERN]);
    if (era === "modern") await expect.poll(() => listChanged, WAIT).toBeGreaterThanOrEqual(2);
    else expect(listChanged).toBe(0);
  }, 120_000);
});
