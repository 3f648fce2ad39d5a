/**
 * Both protocol eras through the real transports, with raw JSON-RPC for what no SDK client sends:
 * the spawned sample bin over stdio and over `--http`, a 2025-11-25 handshake and 2026-07-28
 * requests (a `_meta` envelope on each, no initialize).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CACHE_HINTS } from "../src/server/create-server.js";

const SAMPLE_BIN = fileURLToPath(new URL("../dist/sample/mcp.js", import.meta.url));
const MODERN = "2026-07-28";

type Message = {
  jsonrpc: "2.0";
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

const envelope = (version = MODERN, extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
  ...extra,
});

/** The sample bin on stdio, driven line by line. */
class RawStdio {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: Message[] = [];
  private buffer = "";
  private waiters: (() => void)[] = [];

  constructor() {
    this.child = spawn(process.execPath, [SAMPLE_BIN], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        this.received.push(JSON.parse(line) as Message);
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  async answer(id: number | string | null, timeoutMs = 20_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${String(id)}; got ${JSON.stringify(this.received).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async request(id: number, method: string, params: Record<string, unknown> = {}): Promise<Message> {
    this.send({ jsonrpc: "2.0", id, method, params });
    return this.answer(id);
  }

  close(): void {
    this.child.kill("SIGKILL");
  }
}

const opened: RawStdio[] = [];
const stdio = () => {
  const raw = new RawStdio();
  opened.push(raw);
  return raw;
};
afterEach(() => {
  for (const raw of opened.splice(0)) raw.close();
});

describe("stdio, 2026-07-28 (no initialize, an envelope on every request)", () => {
  it("server/discover answers with the versions, the capabilities, the instructions and a cache hint", async () => {
    const raw = stdio();
    const answer = await raw.request(1, "server/discover", { _meta: envelope() });
    expect(answer.error).toBeUndefined();
    const result = answer.result as Record<string, unknown>;
    expect(result.supportedVersions).toContain(MODERN);
    expect(result.capabilities).toMatchObject({ tools: {}, resources: {} });
    expect(result.instructions).toMatch(/sample server/);
    expect(result).toMatchObject({ resultType: "complete", ttlMs: CACHE_HINTS["server/discover"].ttlMs, cacheScope: "private" });
    expect((result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "local-mcp-sample" });
  });

  it("lists, calls and reads with no handshake; list and read results carry true cache hints", async () => {
    const raw = stdio();
    const tools = await raw.request(1, "tools/list", { _meta: envelope() });
    expect((tools.result?.tools as { name: string }[]).map((t) => t.name)).toEqual(["echo", "wait"]);
    expect(tools.result).toMatchObject({ resultType: "complete", ...CACHE_HINTS["tools/list"] });
    const call = await raw.request(2, "tools/call", { name: "echo", arguments: { text: "hi" }, _meta: envelope() });
    expect(call.result).toMatchObject({ resultType: "complete", structuredContent: { text: "hi", length: 2 } });
    const read = await raw.request(3, "resources/read", { uri: "sample://server-info", _meta: envelope() });
    // A resource follows files that change at any time: never cacheable.
    expect(read.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    const list = await raw.request(4, "resources/list", { _meta: envelope() });
    expect(list.result).toMatchObject({ ttlMs: 0 });
  });

  it("a request naming an unsupported version gets -32022 with the supported list", async () => {
    const raw = stdio();
    const answer = await raw.request(1, "tools/list", { _meta: envelope("2099-01-01") });
    expect(answer.error?.code).toBe(-32022);
    expect(answer.error?.data?.supported).toContain(MODERN);
    // The connection is still open for a supported opening.
    expect((await raw.request(2, "tools/list", { _meta: envelope() })).result?.tools).toHaveLength(2);
    // And once it is pinned to 2026-07-28, every request naming another version is refused too.
    for (const [id, version] of [
      [3, "2099-01-01"],
      [4, "2025-11-25"],
    ] as const) {
      const later = await raw.request(id, "tools/call", { name: "echo", arguments: { text: "x" }, _meta: envelope(version) });
      expect(later.error, JSON.stringify(later)).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: version } });
    }
  });

  it("after a 2026-07-28 opening, a request without its envelope and an initialize are refused; the connection goes on", async () => {
    const raw = stdio();
    await raw.request(1, "tools/list", { _meta: envelope() });
    const bare = await raw.request(2, "tools/list", {});
    expect(bare.error, JSON.stringify(bare)).toBeDefined();
    const init = await raw.request(3, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    expect(init.error?.code).toBe(-32022);
    expect((await raw.request(4, "tools/list", { _meta: envelope() })).result?.tools).toHaveLength(2);
  });

  it("log messages reach the client only when its request asked for them (logLevel in the envelope)", async () => {
    const raw = stdio();
    await raw.request(1, "tools/call", { name: "wait", arguments: { ms: 1 }, _meta: envelope() });
    expect(raw.received.filter((m) => m.method === "notifications/message")).toEqual([]);
    await raw.request(2, "tools/call", {
      name: "wait",
      arguments: { ms: 1 },
      _meta: envelope(MODERN, { "io.modelcontextprotocol/logLevel": "info" }),
    });
    const logs = raw.received.filter((m) => m.method === "notifications/message");
    expect(logs).toHaveLength(1);
    expect(logs[0]?.params).toMatchObject({ level: "info", logger: "wait", data: "waiting 1 ms" });
    // A level above the message's: nothing.
    await raw.request(3, "tools/call", {
      name: "wait",
      arguments: { ms: 1 },
      _meta: envelope(MODERN, { "io.modelcontextprotocol/logLevel": "error" }),
    });
    expect(raw.received.filter((m) => m.method === "notifications/message")).toHaveLength(1);
  });

  it("a batch array and a 20 MB message are refused with -32600; the server goes on", async () => {
    const raw = stdio();
    raw.send([{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } }]);
    expect((await raw.answer(null)).error?.code).toBe(-32600);
    raw.received.length = 0;
    raw.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "x".repeat(20 * 1024 * 1024) }, _meta: envelope() },
      }),
    );
    expect((await raw.answer(null)).error).toMatchObject({ code: -32600, message: expect.stringMatching(/longer than/) as string });
    expect((await raw.request(3, "tools/list", { _meta: envelope() })).result?.tools).toHaveLength(2);
  });
});

describe("stdio, 2025-11-25 (initialize handshake)", () => {
  it("serves the handshake era as before (no cache fields, no resultType); log messages only after logging/setLevel", async () => {
    const raw = stdio();
    const init = await raw.request(1, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    expect(init.result).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: { name: "local-mcp-sample" } });
    raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const tools = await raw.request(2, "tools/list");
    expect(tools.result?.tools).toHaveLength(2);
    expect(tools.result).not.toHaveProperty("ttlMs");
    expect(tools.result).not.toHaveProperty("resultType");
    // Log messages only after the client asks for them with logging/setLevel.
    await raw.request(10, "tools/call", { name: "wait", arguments: { ms: 1 } });
    expect(raw.received.filter((m) => m.method === "notifications/message")).toEqual([]);
    await raw.request(11, "logging/setLevel", { level: "info" });
    await raw.request(12, "tools/call", { name: "wait", arguments: { ms: 1 } });
    expect(raw.received.filter((m) => m.method === "notifications/message").map((m) => m.params)).toEqual([
      { level: "info", logger: "wait", data: "waiting 1 ms" },
    ]);
    await raw.request(13, "logging/setLevel", { level: "error" });
    await raw.request(14, "tools/call", { name: "wait", arguments: { ms: 1 } });
    expect(raw.received.filter((m) => m.method === "notifications/message")).toHaveLength(1);
    // A second initialize on the connection is refused (core's transport).
    expect(
      (await raw.request(3, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } }))
        .error?.code,
    ).toBe(-32600);
  });
});

/** The sample bin on --http 0. */
async function http(): Promise<{ url: string; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(process.execPath, [SAMPLE_BIN, "--http", "0"], { stdio: ["pipe", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const match = /ready on (http:\/\/\S+)/.exec(text);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", () => reject(new Error(`exited: ${text}`)));
  });
  opened.push({ close: () => child.kill("SIGKILL") } as unknown as RawStdio);
  return { url, child };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** The headers a 2026-07-28 request carries over HTTP (SEP-2243). */
const modernHeaders = (method: string, name?: string, version = MODERN) => ({
  "mcp-protocol-version": version,
  "mcp-method": method,
  ...(name ? { "mcp-name": name } : {}),
});

describe("--http, both eras at one endpoint", () => {
  it("2026-07-28: discover, list, call, read without a session; -32022 for an unknown version; header checks", async () => {
    const { url } = await http();
    const discover = await post(
      url,
      { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope() } },
      modernHeaders("server/discover"),
    );
    expect(discover.status).toBe(200);
    expect(discover.headers.get("mcp-session-id")).toBeNull();
    expect(((await discover.json()) as Message).result?.supportedVersions).toContain(MODERN);
    const call = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hey" }, _meta: envelope() } },
      modernHeaders("tools/call", "echo"),
    );
    expect(((await call.json()) as Message).result).toMatchObject({ structuredContent: { text: "hey", length: 3 } });
    const read = await post(
      url,
      { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "sample://server-info", _meta: envelope() } },
      modernHeaders("resources/read", "sample://server-info"),
    );
    expect(((await read.json()) as Message).result).toMatchObject({ ttlMs: 0 });
    const unknown = await post(
      url,
      { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: envelope("2099-01-01") } },
      modernHeaders("tools/list", undefined, "2099-01-01"),
    );
    const unknownBody = (await unknown.json()) as Message;
    expect(unknownBody.error?.code).toBe(-32022);
    expect(unknownBody.error?.data?.supported).toContain(MODERN);
    // The body names one tool, the header another: refused (-32020, header mismatch).
    const mismatch = await post(
      url,
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "echo", arguments: { text: "x" }, _meta: envelope() } },
      modernHeaders("tools/call", "wait"),
    );
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as Message).error?.code).toBe(-32020);
  });

  it("2025-11-25 at the same endpoint: initialize opens a session, as before", async () => {
    const { url } = await http();
    const init = await post(url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toMatch(/\S/);
    // No session and no envelope: still refused as before.
    const bare = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect(bare.status).toBe(400);
  });

  it("a batch array, a 20 MB body and a bad Host are refused before any server sees them", async () => {
    const { url } = await http();
    const batch = await post(
      url,
      [{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } }],
      modernHeaders("tools/list"),
    );
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as Message).error?.code).toBe(-32600);
    const huge = await post(
      url,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope(), pad: "x".repeat(20 * 1024 * 1024) } }),
      modernHeaders("tools/list"),
    );
    expect(huge.status).toBe(413);
    const { request } = await import("node:http");
    const target = new URL(url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: target.port,
          path: target.pathname,
          method: "POST",
          headers: { host: "evil.example", "content-type": "application/json", ...modernHeaders("tools/list") },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: envelope() } }));
    });
    expect(status).toBe(403);
  });
});
