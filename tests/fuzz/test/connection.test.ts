/**
 * The fuzz connection in each protocol era, against the real catdoc-mcp: it lands in the era it
 * asked for, a call too deep for JSON.stringify (written to stdin by hand) reaches the tool as the
 * client's own calls do — in the modern era that takes the `_meta` envelope, without which the
 * server answers -32602 and the fuzz would never get past the protocol layer — and the server
 * still answers afterwards (ping; `server/discover` in the modern era, which has no ping).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolErrorBodySchema } from "@local-mcp/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FuzzConnection } from "../src/connection.js";
import { ERAS } from "../src/era.js";
import { catdocTarget } from "../src/targets/catdoc.js";
import { nest } from "../src/wire-value.js";

describe.each(ERAS)("a %s connection", (era) => {
  let dir: string;
  let connection: FuzzConnection;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `fuzz-connection-${era}-`));
    const prepared = await catdocTarget.prepare(dir);
    connection = await FuzzConnection.start(
      { command: process.execPath, args: [catdocTarget.entry], env: prepared.env, cwd: prepared.cwd },
      era,
    );
  }, 60_000);
  afterAll(async () => {
    await connection?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(`lands in the ${era} era and lists the tools`, async () => {
    expect(connection.era).toBe(era);
    expect(connection.spawned.client.getProtocolEra()).toBe(era);
    expect((await connection.listTools()).map((t) => t.name)).toContain("catdoc_search");
  });

  it("sends the client's calls and raw 10,000-level calls alike to the tool", async () => {
    const client = await connection.callTool("catdoc_search", { query: "sync" }, 20_000);
    expect(client).toMatchObject({ kind: "result", raw: false });
    const raw = await connection.callTool("catdoc_search", { query: "sync", limit: nest("array", 10_000) }, 20_000);
    expect(raw.raw).toBe(true);
    if (raw.kind !== "result") throw new Error(`the raw call was answered ${JSON.stringify(raw).slice(0, 400)}`);
    expect(ToolErrorBodySchema.parse(raw.result.structuredContent).error.code).toBe("INVALID_INPUT");
  });

  it(`still answers afterwards (${era === "modern" ? "server/discover" : "ping"}), with clean stdout`, async () => {
    expect(await connection.ping()).toBe(true);
    expect(connection.nonJsonLines).toEqual([]);
    expect(connection.exited).toBeUndefined();
  });
});
