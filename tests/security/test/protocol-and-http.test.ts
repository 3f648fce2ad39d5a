/**
 * Issue #13, items 12 and 13: protocol abuse over stdio and HTTP, and abandoned HTTP sessions,
 * performed for real against every `*-mcp` bin.
 *
 * stdio (raw JSON-RPC lines, no SDK client in between):
 * - 20 tools/call requests in flight, then stdin ends: every one is answered before the process
 *   exits (before the fix, catdoc, local-model and solo-assets answered 0 of 20 — shutdown closed
 *   the server, which dropped the handlers' results).
 * - a second `initialize`, a batch array, a request with an invalid id and a line that is not JSON
 *   each get a JSON-RPC error (-32600 Invalid Request, -32700 Parse error) instead of silence or a
 *   second handshake.
 *
 * HTTP (`--http 0`, raw sockets so the test writes every byte of the request):
 * - Host values that name loopback only after lenient parsing (`127.1`, `0x7f000001`,
 *   `evil@127.0.0.1:P`, uppercase, trailing dot, junk after the port, a duplicated Host, an
 *   absolute-form request target…) and the same tricks in Origin get 403 and create no session;
 *   the exact documented names pass.
 * - a session cap (LOCAL_MCP_HTTP_MAX_SESSIONS): a new session evicts the least recently used idle
 *   one (its id then answers 404); when every session is busy a new initialize gets 503.
 * - an idle expiry (LOCAL_MCP_HTTP_SESSION_IDLE_MS): an unused session is closed, its server
 *   cleaned up (the stderr line says so, with the count of sessions left), and its id answers 404.
 * - a batch and an invalid id in a POST body get 400 with -32600 and id null.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVERS, SERVER_NODE, type ServerUnderTest } from "./support/servers.js";

/** A tool call per server that does real (asynchronous) work but finishes well within a second. */
const SLOW_ENOUGH_CALL: Record<string, { name: string; arguments: Record<string, unknown> }> = {
  "local-mcp-sample": { name: "wait", arguments: { ms: 200 } },
  "catdoc-mcp": { name: "catdoc_search", arguments: { query: "algebra topology" } },
  "local-model-mcp": { name: "local_extract", arguments: { task_type: "frontmatter", files: ["notes.md"] } },
  "mochi-mcp": { name: "suggest_pattern", arguments: { goal: "custom error classes that carry an error code" } },
  "solo-assets-mcp": { name: "list_functions", arguments: {} },
};

const PROTOCOL_VERSION = "2025-06-18";
const initializeRequest = (id: number | string) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "security", version: "0" } },
});

interface JsonRpcAnswer {
  jsonrpc?: string;
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  method?: string;
}

/** A bin over stdio spoken to in raw lines: what it wrote to stdout, parsed, in order. */
class RawStdio {
  readonly messages: JsonRpcAnswer[] = [];
  readonly badLines: string[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private pending = "";
  private waiters: (() => void)[] = [];

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.pending += chunk;
      let newline: number;
      while ((newline = this.pending.indexOf("\n")) >= 0) {
        const line = this.pending.slice(0, newline);
        this.pending = this.pending.slice(newline + 1);
        try {
          this.messages.push(JSON.parse(line) as JsonRpcAnswer);
        } catch {
          this.badLines.push(line);
        }
      }
      this.wake();
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
      this.wake();
    });
    void this.exited.then(() => this.wake());
  }

  static async start(server: ServerUnderTest, env: Record<string, string>, cwd: string): Promise<RawStdio> {
    const child = spawn(SERVER_NODE, [server.entry], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    const raw = new RawStdio(child);
    await raw.until(() => /ready on stdio/.test(raw.stderr), 30_000, "the ready line");
    return raw;
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits (bounded) until the condition holds; re-checked on every output or exit. */
  async until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        if (condition()) return;
        throw new Error(`the server exited while waiting for ${what}. stderr:\n${this.stderr}`);
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no ${what} within ${timeoutMs} ms. stdout so far: ${JSON.stringify(this.messages).slice(0, 2000)}\nstderr:\n${this.stderr}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  writeLine(text: string): void {
    this.child.stdin.write(`${text}\n`);
  }

  send(message: unknown): void {
    this.writeLine(JSON.stringify(message));
  }

  answerTo(id: unknown): JsonRpcAnswer | undefined {
    return this.messages.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
  }

  async request(message: { id: number | string } & Record<string, unknown>): Promise<JsonRpcAnswer> {
    this.send(message);
    await this.until(() => this.answerTo(message.id) !== undefined, 30_000, `an answer to id ${message.id}`);
    return this.answerTo(message.id)!;
  }

  async handshake(): Promise<void> {
    const answer = await this.request(initializeRequest(0));
    expect(answer.result?.protocolVersion).toBeDefined();
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}

describe.each(SERVERS)("$name over stdio: protocol abuse and stdin EOF with requests in flight", (server) => {
  let dir: string;
  let raw: RawStdio;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `security-protocol-${server.name}-`));
    raw = await RawStdio.start(server, await server.env(dir), dir);
    await raw.handshake();
  });

  afterAll(async () => {
    raw?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers a second initialize with -32600 and keeps the first session", async () => {
    const again = await raw.request(initializeRequest(1));
    expect(again.result, JSON.stringify(again)).toBeUndefined();
    expect(again.error?.code).toBe(-32600);
    expect(again.error?.message).toMatch(/already initialized/i);
    expect((await raw.request({ jsonrpc: "2.0", id: 2, method: "tools/list" })).result?.tools).toBeDefined();
  });

  it("answers a batch, an invalid id and a line that is not JSON with an error whose id is null", async () => {
    const abuses: { line: string; code: number }[] = [
      { line: JSON.stringify([{ jsonrpc: "2.0", id: 10, method: "ping" }]), code: -32600 },
      { line: JSON.stringify([]), code: -32600 },
      ...[{}, [1], 1.5, true, null].map((id) => ({ line: JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }), code: -32600 })),
      { line: JSON.stringify({ jsonrpc: "2.0", id: { x: 1 }, method: "tools/call", params: { name: "x" } }), code: -32600 },
      { line: JSON.stringify("ping"), code: -32600 },
      { line: '{"jsonrpc":"2.0","id":11,"method":"ping"', code: -32700 },
    ];
    let sync = 100;
    for (const abuse of abuses) {
      const before = raw.messages.length;
      raw.writeLine(abuse.line);
      // The server reads lines in order: an answer to the ping after it bounds the wait for the error.
      const ping = await raw.request({ jsonrpc: "2.0", id: ++sync, method: "ping" });
      expect(ping.result).toEqual({});
      const between = raw.messages.slice(before).filter((m) => m.id !== sync);
      expect(between, abuse.line).toEqual([{ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: abuse.code }) as unknown }]);
    }
    // A batch is not run: no answer to the ping inside it.
    expect(raw.answerTo(10)).toBeUndefined();
    expect(raw.badLines).toEqual([]);
  });

  it("answers all 20 requests in flight when stdin ends, then exits 0", async () => {
    const call = SLOW_ENOUGH_CALL[server.name];
    if (!call) throw new Error(`no call for ${server.name}`);
    const ids = Array.from({ length: 20 }, (_, i) => 1000 + i);
    const before = raw.messages.length;
    // All 20 lines and the end of stdin in one write: the server reads them and sees EOF together.
    raw.child.stdin.end(ids.map((id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: call })).join("\n") + "\n");
    const exit = await Promise.race([
      raw.exited,
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 30_000)),
    ]);
    const answered = ids.filter((id) => raw.messages.slice(before).some((m) => m.id === id && m.result !== undefined));
    expect(answered.length, `answered ${answered.length} of 20. stderr:\n${raw.stderr}`).toBe(20);
    for (const id of ids) expect(raw.answerTo(id)?.result?.isError, `id ${id}`).not.toBe(true);
    expect(exit).toEqual({ code: 0, signal: null });
  });
});

// ---------------------------------------------------------------------------------------------
// HTTP

interface RawHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The body of a chunked transfer. */
function dechunk(raw: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    const size = parseInt(raw.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts).toString("utf8");
}

/**
 * Sends exactly these bytes on a new connection and reads one answer: up to its Content-Length,
 * the last chunk of a chunked body, or the close (the SDK's answers say keep-alive whatever the
 * request asked, so waiting for the close alone would wait out the keep-alive timeout).
 */
function rawHttp(port: number, head: string, body = ""): Promise<RawHttpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    let data = Buffer.alloc(0);
    let done = false;
    const finish = () => {
      if (done) return;
      const split = data.indexOf("\r\n\r\n");
      const lines = data
        .subarray(0, split < 0 ? data.length : split)
        .toString("utf8")
        .split("\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? "")?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      let text = split < 0 ? "" : data.subarray(split + 4).toString("utf8");
      const length = headers["content-length"];
      if (split >= 0 && length !== undefined) {
        if (data.length - split - 4 < Number(length)) return;
        text = data.subarray(split + 4, split + 4 + Number(length)).toString("utf8");
      } else if (split >= 0 && headers["transfer-encoding"] === "chunked") {
        if (!data.subarray(split).includes("\r\n0\r\n\r\n")) return;
        text = dechunk(data.subarray(split + 4));
      } else if (!socket.destroyed && !socket.readableEnded) {
        return;
      }
      done = true;
      socket.destroy();
      resolve({ status, headers, body: text });
    };
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer within 15 s to:\n${head}`)));
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      finish();
    });
    socket.on("end", finish);
    socket.on("error", reject);
    socket.on("close", () => {
      finish();
      if (!done) reject(new Error(`the connection closed before a whole answer to:\n${head}`));
    });
    socket.write(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

const ACCEPT = "application/json, text/event-stream";

/** The request head of an MCP POST with the given header lines (each "Name: value"). */
const postHead = (lines: string[], target = "/mcp") =>
  [`POST ${target} HTTP/1.1`, "Content-Type: application/json", `Accept: ${ACCEPT}`, ...lines].join("\r\n");

interface HttpProcess {
  port: number;
  stderr: () => string;
  stop: () => Promise<void>;
}

async function startHttp(server: ServerUnderTest, env: Record<string, string>, cwd: string): Promise<HttpProcess> {
  const child = spawn(SERVER_NODE, [server.entry, "--http", "0"], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${server.name} --http 0: no ready line within 30 s. stderr:\n${stderr}`)), 30_000);
    child.stderr.on("data", () => {
      const match = /ready on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${server.name} --http 0 exited before it was ready. stderr:\n${stderr}`));
    });
  });
  return {
    port,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function initializeOver(port: number, extra: string[] = []): Promise<RawHttpAnswer> {
  return rawHttp(port, postHead([`Host: 127.0.0.1:${port}`, ...extra]), JSON.stringify(initializeRequest(1)));
}

/** A tools/list in an existing session: 200 while it lives, 404 once it is gone. */
async function useSession(port: number, session: string): Promise<number> {
  const answer = await rawHttp(
    port,
    postHead([`Host: 127.0.0.1:${port}`, `Mcp-Session-Id: ${session}`, `Mcp-Protocol-Version: ${PROTOCOL_VERSION}`]),
    JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
  );
  return answer.status;
}

async function openSession(port: number): Promise<string> {
  const answer = await initializeOver(port);
  expect(answer.status, answer.body).toBe(200);
  const session = answer.headers["mcp-session-id"];
  expect(session).toMatch(/^[0-9a-f-]{36}$/);
  const initialized = await rawHttp(
    port,
    postHead([`Host: 127.0.0.1:${port}`, `Mcp-Session-Id: ${session}`, `Mcp-Protocol-Version: ${PROTOCOL_VERSION}`]),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  );
  expect(initialized.status).toBe(202);
  return session!;
}

/** The standalone SSE stream of a session (GET), held open until `close` — the session is busy meanwhile. */
function holdStream(port: number, session: string): Promise<{ status: number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "GET",
        agent: false,
        headers: {
          host: `127.0.0.1:${port}`,
          accept: "text/event-stream",
          "mcp-session-id": session,
          "mcp-protocol-version": PROTOCOL_VERSION,
        },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? undefined : reject(error)));
    req.end();
  });
}

/** Polls (bounded) until the condition holds. */
async function waitFor(condition: () => boolean, timeoutMs: number, failure: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(SERVERS)("$name --http 0: exact Host/Origin, JSON-RPC checks, session cap, idle expiry", (server) => {
  let dir: string;
  let idleDir: string;
  /** Small cap, default idle time: the Host, body and cap tests. */
  let http: HttpProcess;
  /** Short idle time: the expiry test. */
  let httpIdle: HttpProcess;
  const CAP = 5;
  const IDLE_MS = 1_000;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `security-http-${server.name}-`));
    idleDir = await mkdtemp(join(tmpdir(), `security-idle-${server.name}-`));
    // Started together: most of this file's time is servers starting.
    [http, httpIdle] = await Promise.all([
      server
        .env(dir)
        .then((env) => startHttp(server, { ...env, LOCAL_MCP_HTTP_MAX_SESSIONS: String(CAP), LOCAL_MCP_LOG_LEVEL: "info" }, dir)),
      server
        .env(idleDir)
        .then((env) =>
          startHttp(server, { ...env, LOCAL_MCP_HTTP_SESSION_IDLE_MS: String(IDLE_MS), LOCAL_MCP_LOG_LEVEL: "info" }, idleDir),
        ),
    ]);
  });

  afterAll(async () => {
    await Promise.all([http?.stop(), httpIdle?.stop()]);
    await Promise.all([rm(dir, { recursive: true, force: true }), rm(idleDir, { recursive: true, force: true })]);
  });

  it("refuses every Host and Origin but the exact loopback names with this port: 403, no session", async () => {
    const port = http.port;
    const refused: { lines: string[]; target?: string }[] = [
      ...[
        `127.1:${port}`,
        `0x7f000001:${port}`,
        `2130706433:${port}`,
        `0177.0.0.1:${port}`,
        `127.0.0.1.:${port}`,
        `localhost.:${port}`,
        `[::ffff:127.0.0.1]:${port}`,
        `[0:0:0:0:0:0:0:1]:${port}`,
        `evil@127.0.0.1:${port}`,
        `LOCALHOST:${port}`,
        `Localhost:${port}`,
        `127.0.0.1:${port + 1}`,
        `127.0.0.1:0${port}`,
        `127.0.0.1:${port}junk`,
        `127.0.0.1:${port}/x`,
        `127.0.0.1:${port}?x`,
        `127.0.0.1:${port}#x`,
        `127.0.0.1:${port}, evil.example`,
        `127.0.0.1`,
        `localhost`,
        `evil.example:${port}`,
      ].map((host) => ({ lines: [`Host: ${host}`] })),
      { lines: [`Host: 127.0.0.1:${port}`, "Host: evil.example"] },
      { lines: ["Host: evil.example", `Host: 127.0.0.1:${port}`] },
      { lines: [`Host: 127.0.0.1:${port}`], target: "http://evil.example/mcp" },
      { lines: [`Host: 127.0.0.1:${port}`], target: `http://127.0.0.1:${port}/mcp` },
      ...[
        `http://127.1:${port}`,
        `http://0x7f000001:${port}`,
        `http://LOCALHOST:${port}`,
        `http://evil@127.0.0.1:${port}`,
        `http://127.0.0.1:${port}/`,
        `http://127.0.0.1:0${port}`,
        `http://127.0.0.1.:${port}`,
        `http://[::ffff:127.0.0.1]:${port}`,
        `http://127.0.0.1:${port}, http://evil.example`,
        "null",
      ].map((origin) => ({ lines: [`Host: 127.0.0.1:${port}`, `Origin: ${origin}`] })),
      { lines: [`Host: 127.0.0.1:${port}`, `Origin: http://127.0.0.1:${port}`, "Origin: http://evil.example"] },
    ];
    const passed: string[] = [];
    for (const { lines, target } of refused) {
      const answer = await rawHttp(port, postHead(lines, target), JSON.stringify(initializeRequest(1)));
      if (answer.status !== 403 || answer.headers["mcp-session-id"] !== undefined)
        passed.push(`${target ?? "/mcp"} ${lines.join(" | ")} → ${answer.status}`);
      const session = answer.headers["mcp-session-id"];
      if (session) await rawHttp(port, [`DELETE /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Mcp-Session-Id: ${session}`].join("\r\n"));
    }
    expect(passed).toEqual([]);
    // The documented names pass (the check is not a blanket refusal).
    for (const lines of [
      [`Host: 127.0.0.1:${port}`],
      [`Host: localhost:${port}`],
      [`Host: [::1]:${port}`],
      [`Host: localhost:${port}`, `Origin: http://localhost:${port}`],
      [`Host: 127.0.0.1:${port}`, `Origin: http://[::1]:${port}`],
    ]) {
      const answer = await rawHttp(port, postHead(lines), JSON.stringify(initializeRequest(1)));
      expect(answer.status, lines.join(" | ")).toBe(200);
      const session = answer.headers["mcp-session-id"];
      expect(session).toBeDefined();
      const deleted = await rawHttp(port, [`DELETE /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Mcp-Session-Id: ${session}`].join("\r\n"));
      expect(deleted.status).toBe(200);
    }
  });

  it("answers a batch and an invalid id in a POST with 400, -32600 and id null", async () => {
    const port = http.port;
    const session = await openSession(port);
    const headers = [`Host: 127.0.0.1:${port}`, `Mcp-Session-Id: ${session}`, `Mcp-Protocol-Version: ${PROTOCOL_VERSION}`];
    const bodies = [
      [{ jsonrpc: "2.0", id: 5, method: "tools/list" }],
      ...[{}, [1], 1.5, true, null].map((id) => ({ jsonrpc: "2.0", id, method: "tools/list" })),
    ];
    for (const body of bodies) {
      const answer = await rawHttp(port, postHead(headers), JSON.stringify(body));
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(answer.body), JSON.stringify(body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    }
    // A second initialize in the session is refused too (the SDK's transport does it over HTTP).
    const again = await rawHttp(port, postHead(headers), JSON.stringify(initializeRequest(9)));
    expect(again.status).toBe(400);
    expect(JSON.parse(again.body)).toMatchObject({ error: { code: -32600 } });
    await rawHttp(port, [`DELETE /mcp HTTP/1.1`, ...headers].join("\r\n"));
  });

  it(`holds at most ${CAP} sessions: a new one evicts the least recently used idle one, or gets 503 when all are busy`, async () => {
    const port = http.port;
    const sessions: string[] = [];
    for (let i = 0; i < CAP; i++) sessions.push(await openSession(port));
    // Use every session but the second, so the second is the least recently used.
    for (const [i, session] of sessions.entries()) if (i !== 1) expect(await useSession(port, session)).toBe(200);
    const newest = await openSession(port);
    expect(await useSession(port, sessions[1]!)).toBe(404);
    for (const [i, session] of sessions.entries()) if (i !== 1) expect(await useSession(port, session), `session ${i}`).toBe(200);
    expect(http.stderr()).toMatch(new RegExp(`closed session ${sessions[1]}.*least recently used`));

    // Every session busy (a held SSE stream each): no session can be evicted, so a new one is refused.
    const live = [...sessions.filter((_, i) => i !== 1), newest];
    const streams = await Promise.all(live.map((session) => holdStream(port, session)));
    expect(streams.map((s) => s.status)).toEqual(live.map(() => 200));
    const refused = await initializeOver(port);
    expect(refused.status).toBe(503);
    expect(refused.headers["mcp-session-id"]).toBeUndefined();
    expect(JSON.parse(refused.body)).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringMatching(/too many sessions/i) as unknown },
    });
    expect(refused.headers["retry-after"]).toBeDefined();
    for (const stream of streams) stream.close();
    for (const session of live)
      await rawHttp(port, [`DELETE /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Mcp-Session-Id: ${session}`].join("\r\n"));
  });

  it(`closes a session unused for ${IDLE_MS} ms, cleans its server up, and answers its id with 404`, async () => {
    const port = httpIdle.port;
    // Abandoned right after initialize, as a client that went away does.
    const abandoned = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const answer = await initializeOver(port);
        expect(answer.status).toBe(200);
        return answer.headers["mcp-session-id"]!;
      }),
    );
    const started = Date.now();
    // Watched on stderr, not by using the sessions (a use would keep them alive).
    await waitFor(
      () => abandoned.every((session) => httpIdle.stderr().includes(`closed session ${session}`)),
      20_000,
      () => `no close line for every session. stderr:\n${httpIdle.stderr()}`,
    );
    // Not before its idle time (generous bound: the sessions were opened before `started`).
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_MS / 2);
    expect(httpIdle.stderr()).toMatch(/closed session [0-9a-f-]{36} after \d+ ms idle \(server cleaned up; 0 open\)/);
    for (const session of abandoned) expect(await useSession(port, session), session).toBe(404);
    // A new session still opens.
    const fresh = await initializeOver(port);
    expect(fresh.status).toBe(200);
    expect(fresh.headers["mcp-session-id"]).toBeDefined();
  });
});
