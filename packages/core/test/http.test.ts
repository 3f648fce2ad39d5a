import { request } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger, type HttpHandle } from "../src/index.js";
import { runHttp } from "../src/server/run-http.js";
import { createSampleServer } from "../src/sample/sample-server.js";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

/** A raw POST where the test controls Host and Origin (fetch would not let it set Host). */
function rawPost(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

describe("Streamable HTTP runner", () => {
  let handle: HttpHandle;
  beforeAll(async () => {
    handle = await runHttp(() => createSampleServer({ LOCAL_MCP_LOG_LEVEL: "silent" }), { port: 0, logger: silentLogger });
  });
  afterAll(async () => handle.close());

  it("listens on 127.0.0.1 and serves a real client", async () => {
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "http-test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    const result = (await client.callTool({ name: "echo", arguments: { text: "over http" } })) as CallToolResult;
    expect(result.structuredContent).toEqual({ text: "over http", length: 9 });
    await client.setLoggingLevel("warning");
    await client.close();
  });

  it("refuses a foreign Origin with 403", async () => {
    const res = await rawPost(handle.port, { host: `127.0.0.1:${handle.port}`, origin: "http://evil.example.com" });
    expect(res.status).toBe(403);
    expect(res.body).toMatch(/Origin http:\/\/evil\.example\.com is not allowed/);
  });

  it("refuses a foreign Host (DNS rebinding) with 403", async () => {
    const res = await rawPost(handle.port, { host: "evil.example.com", origin: "http://evil.example.com" });
    expect(res.status).toBe(403);
  });

  it("refuses a loopback origin on another port", async () => {
    const res = await rawPost(handle.port, { host: `localhost:${handle.port}`, origin: `http://localhost:${handle.port + 1}` });
    expect(res.status).toBe(403);
  });

  it("accepts loopback Host and Origin", async () => {
    const res = await rawPost(handle.port, { host: `localhost:${handle.port}`, origin: `http://localhost:${handle.port}` });
    expect(res.status).toBe(200);
  });

  it("answers 404 off the endpoint and 400 for a request without a session", async () => {
    const res = await new Promise<number>((resolve) => {
      request({ host: "127.0.0.1", port: handle.port, path: "/other", method: "GET" }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      }).end();
    });
    expect(res).toBe(404);
  });
});

describe("Streamable HTTP runner, 2026-07-28 requests", () => {
  it("a dropped request aborts its tool call; every per-request instance is closed; one prepared server", async () => {
    const { createServer, defineTool, LeveledResponse } = await import("../src/index.js");
    const { z } = await import("zod");
    let aborted = 0;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const hang = defineTool({
      name: "hang",
      title: "Hang",
      description: "Waits until cancelled.",
      input: z.object({}),
      output: z.object({ done: z.boolean() }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      timeoutMs: 60_000,
      handler: async (_args, { signal }) => {
        started();
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        aborted += 1;
        return new LeveledResponse({ minimal: { done: false } });
      },
    });
    let factories = 0;
    let instances = 0;
    let closed = 0;
    const modern = await runHttp(
      () => {
        factories += 1;
        const created = createServer({ name: "hang", version: "0", tools: [hang], logger: silentLogger });
        return {
          ...created,
          instance: () => {
            const server = created.instance();
            instances += 1;
            const previous = server.onclose;
            server.onclose = () => {
              closed += 1;
              previous?.();
            };
            return server;
          },
        };
      },
      { port: 0, logger: silentLogger },
    );
    try {
      const client = new Client({ name: "modern", version: "0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(modern.url)));
      expect(client.getProtocolEra()).toBe("modern");
      await client.listTools();
      const cancel = new AbortController();
      const call = client.callTool({ name: "hang", arguments: {} }, { signal: cancel.signal });
      await running;
      cancel.abort();
      await expect(call).rejects.toThrow();
      // The server saw the client close the request's stream and aborted the handler's signal.
      await expect.poll(() => aborted, { timeout: 10_000 }).toBe(1);
      await expect.poll(() => closed, { timeout: 10_000 }).toBe(instances);
      expect(factories).toBe(1);
      expect(instances).toBeGreaterThanOrEqual(3);
      await client.close();
    } finally {
      await modern.close();
    }
  });
});
