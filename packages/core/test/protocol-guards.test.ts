import type { IncomingMessage } from "node:http";
import { request } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  CheckedStdioTransport,
  checkJsonRpcMessage,
  checkLoopbackRequest,
  parseHttpConfig,
  runStdio,
  silentLogger,
  type CreatedServer,
} from "../src/index.js";
import { createSampleServer } from "../src/sample/sample-server.js";
import { runHttp } from "../src/server/run-http.js";

const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
};

describe("checkJsonRpcMessage", () => {
  it("passes valid messages and refuses batches, invalid ids and non-JSON-RPC with -32600", () => {
    expect(checkJsonRpcMessage({ jsonrpc: "2.0", id: 1, method: "ping" }).ok).toBe(true);
    expect(checkJsonRpcMessage({ jsonrpc: "2.0", id: "a", method: "ping" }).ok).toBe(true);
    expect(checkJsonRpcMessage({ jsonrpc: "2.0", method: "notifications/initialized" }).ok).toBe(true);
    expect(checkJsonRpcMessage({ jsonrpc: "2.0", id: 1, result: {} }).ok).toBe(true);
    for (const value of [[{ jsonrpc: "2.0", id: 1, method: "ping" }], [], "ping", 5, null]) {
      expect(checkJsonRpcMessage(value)).toMatchObject({ ok: false, reply: { jsonrpc: "2.0", id: null, error: { code: -32600 } } });
    }
    for (const id of [{}, [1], 1.5, true, null]) {
      expect(checkJsonRpcMessage({ jsonrpc: "2.0", id, method: "ping" })).toMatchObject({
        ok: false,
        reply: { id: null, error: { code: -32600 } },
      });
    }
    // A readable id is echoed when something else is wrong.
    expect(checkJsonRpcMessage({ jsonrpc: "2.0", id: 7, method: "ping", params: "x" })).toMatchObject({
      ok: false,
      reply: { id: 7, error: { code: -32600 } },
    });
    expect(checkJsonRpcMessage({ jsonrpc: "1.0", method: "x" })).toMatchObject({ ok: false, reply: { id: null } });
    // An invalid response is dropped, never answered.
    const response = checkJsonRpcMessage({ jsonrpc: "2.0", id: {}, result: {} });
    expect(response.ok).toBe(false);
    expect(response.ok ? undefined : response.reply).toBeUndefined();
  });
});

/** A stdio server on in-memory pipes: lines in, parsed answers out. */
function pipes() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers: Record<string, unknown>[] = [];
  let pending = "";
  stdout.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      answers.push(JSON.parse(pending.slice(0, newline)) as Record<string, unknown>);
      pending = pending.slice(newline + 1);
    }
  });
  const send = (message: unknown) => stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  const answerTo = (id: unknown) => answers.find((a) => a.id === id && ("result" in a || "error" in a));
  const until = async (condition: () => boolean, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out; answers: ${JSON.stringify(answers)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { stdin, stdout, answers, send, answerTo, until };
}

function countingFactory(counter: { created: number; cleaned: number }) {
  return (): CreatedServer => {
    const created = createSampleServer({ LOCAL_MCP_LOG_LEVEL: "silent" });
    counter.created += 1;
    const cleanup = created.cleanup;
    return {
      ...created,
      cleanup: async () => {
        await cleanup();
        counter.cleaned += 1;
      },
    };
  };
}

describe("runStdio with core's checked transport", () => {
  it("answers every request in flight when stdin ends, then cleans up", async () => {
    const io = pipes();
    const counter = { created: 0, cleaned: 0 };
    const handle = await runStdio(countingFactory(counter), {
      stdin: io.stdin,
      stdout: io.stdout,
      exitOnClose: false,
      logger: silentLogger,
    });
    io.send(INIT);
    await io.until(() => io.answerTo(0) !== undefined);
    for (let id = 1; id <= 5; id++) io.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "wait", arguments: { ms: 150 } } });
    io.stdin.end();
    await handle.stopped;
    for (let id = 1; id <= 5; id++)
      expect(io.answerTo(id), `id ${id}`).toMatchObject({ result: { structuredContent: { waited_ms: expect.any(Number) as unknown } } });
    expect(counter.cleaned).toBe(1);
  });

  it("gives up on the drain after drainMs (the work is cancelled, cleanup still runs)", async () => {
    const io = pipes();
    const counter = { created: 0, cleaned: 0 };
    const handle = await runStdio(countingFactory(counter), {
      stdin: io.stdin,
      stdout: io.stdout,
      exitOnClose: false,
      logger: silentLogger,
      drainMs: 200,
    });
    io.send(INIT);
    await io.until(() => io.answerTo(0) !== undefined);
    io.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: { ms: 8_000 } } });
    const started = Date.now();
    io.stdin.end();
    await handle.stopped;
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(io.answerTo(1)).toBeUndefined();
    expect(counter.cleaned).toBe(1);
  });

  it("a request cancelled by the client does not hold the drain", async () => {
    const io = pipes();
    const handle = await runStdio(countingFactory({ created: 0, cleaned: 0 }), {
      stdin: io.stdin,
      stdout: io.stdout,
      exitOnClose: false,
      logger: silentLogger,
    });
    io.send(INIT);
    await io.until(() => io.answerTo(0) !== undefined);
    io.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: { ms: 8_000 } } });
    io.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "test" } });
    const started = Date.now();
    io.stdin.end();
    await handle.stopped;
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("answers a second initialize, a batch, invalid ids, bad JSON and a duplicate id in flight with errors", async () => {
    const io = pipes();
    const handle = await runStdio(countingFactory({ created: 0, cleaned: 0 }), {
      stdin: io.stdin,
      stdout: io.stdout,
      exitOnClose: false,
      logger: silentLogger,
    });
    io.send(INIT);
    await io.until(() => io.answerTo(0) !== undefined);
    io.send({ ...INIT, id: 1 });
    await io.until(() => io.answerTo(1) !== undefined);
    expect(io.answerTo(1)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/already initialized/) as unknown } });
    const nullIdErrors = () => io.answers.filter((a) => a.id === null);
    const abuses = [
      JSON.stringify([{ jsonrpc: "2.0", id: 2, method: "ping" }]),
      ...[{}, [1], 1.5, true, null].map((id) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })),
      "{nope",
    ];
    for (const [i, line] of abuses.entries()) {
      io.send(line);
      await io.until(() => nullIdErrors().length === i + 1);
    }
    expect(nullIdErrors().map((a) => (a.error as { code: number }).code)).toEqual([-32600, -32600, -32600, -32600, -32600, -32600, -32700]);
    expect(io.answerTo(2)).toBeUndefined();
    io.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "wait", arguments: { ms: 300 } } });
    io.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    await io.until(() => io.answers.filter((a) => a.id === 3).length === 2);
    expect(io.answers.filter((a) => a.id === 3).map((a) => ("error" in a ? (a.error as { code: number }).code : "result"))).toEqual([
      -32600,
      "result",
    ]);
    await handle.shutdown("test");
  });

  it("skips a line longer than the limit with an error and goes on", async () => {
    const io = pipes();
    const transport = new CheckedStdioTransport({ stdin: io.stdin, stdout: io.stdout, maxLineBytes: 1_000 });
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    io.stdin.write("x".repeat(800));
    io.stdin.write(`${"x".repeat(800)}\n`);
    io.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await io.until(() => io.answers.length === 1 && received.length === 1);
    expect(io.answers[0]).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/longer than 1000 bytes/) as unknown },
    });
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    // A last message without its newline still counts when stdin ends.
    io.stdin.end(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }));
    await io.until(() => received.length === 2);
    await transport.close();
  });
});

function fakeRequest(lines: [string, string][], url = "/mcp"): IncomingMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of lines) headers[name.toLowerCase()] ??= value;
  return { headers, rawHeaders: lines.flat(), url } as unknown as IncomingMessage;
}

describe("checkLoopbackRequest", () => {
  const P = 4321;
  it("accepts exactly the documented names with the listening port", () => {
    for (const host of [`127.0.0.1:${P}`, `localhost:${P}`, `[::1]:${P}`]) {
      expect(checkLoopbackRequest(fakeRequest([["Host", host]]), P), host).toBeUndefined();
      expect(
        checkLoopbackRequest(
          fakeRequest([
            ["Host", host],
            ["Origin", `http://${host}`],
          ]),
          P,
        ),
        host,
      ).toBeUndefined();
    }
  });

  it("refuses every other spelling, duplicates and an absolute-form target", () => {
    const hosts = [
      "127.1",
      "0x7f000001",
      "2130706433",
      "0177.0.0.1",
      "127.0.0.1.",
      "[::ffff:127.0.0.1]",
      "LOCALHOST",
      "evil@127.0.0.1",
    ].map((h) => `${h}:${P}`);
    hosts.push(`127.0.0.1:${P + 1}`, `127.0.0.1:0${P}`, `127.0.0.1:${P}x`, "127.0.0.1", "localhost");
    for (const host of hosts) expect(checkLoopbackRequest(fakeRequest([["Host", host]]), P), host).toMatch(/not this loopback server/);
    expect(
      checkLoopbackRequest(
        fakeRequest([
          ["Host", `127.0.0.1:${P}`],
          ["host", "evil.example"],
        ]),
        P,
      ),
    ).toMatch(/more than one Host/);
    expect(checkLoopbackRequest(fakeRequest([["Host", `127.0.0.1:${P}`]], "http://evil.example/mcp"), P)).toMatch(/absolute URL/);
    for (const origin of [`http://127.1:${P}`, `http://LOCALHOST:${P}`, `https://127.0.0.1:${P}`, `http://127.0.0.1:${P}/`, "null"]) {
      expect(
        checkLoopbackRequest(
          fakeRequest([
            ["Host", `127.0.0.1:${P}`],
            ["Origin", origin],
          ]),
          P,
        ),
        origin,
      ).toMatch(/Origin/);
    }
    expect(
      checkLoopbackRequest(
        fakeRequest([
          ["Host", `127.0.0.1:${P}`],
          ["Origin", `http://127.0.0.1:${P}`],
          ["Origin", "http://evil.example"],
        ]),
        P,
      ),
    ).toMatch(/more than one Origin/);
  });
});

function post(port: number, body: unknown, session?: string): Promise<{ status: number; session?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (c: string) => (text += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, session: res.headers["mcp-session-id"] as string | undefined, body: text }),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("runHttp session limits", () => {
  it("reads its limits from LOCAL_MCP_HTTP_* with documented defaults", () => {
    expect(parseHttpConfig({})).toEqual({ maxSessions: 100, sessionIdleMs: 1_800_000 });
    expect(parseHttpConfig({ LOCAL_MCP_HTTP_MAX_SESSIONS: "5", LOCAL_MCP_HTTP_SESSION_IDLE_MS: "1000" })).toEqual({
      maxSessions: 5,
      sessionIdleMs: 1000,
    });
    expect(() => parseHttpConfig({ LOCAL_MCP_HTTP_MAX_SESSIONS: "0" })).toThrow(/LOCAL_MCP_HTTP_MAX_SESSIONS/);
  });

  it("expires an idle session and cleans its server up; evicts the least recently used idle one at the cap", async () => {
    const counter = { created: 0, cleaned: 0 };
    const handle = await runHttp(countingFactory(counter), { port: 0, logger: silentLogger, maxSessions: 2, sessionIdleMs: 400 });
    try {
      const a = (await post(handle.port, INIT)).session!;
      const b = (await post(handle.port, INIT)).session!;
      expect(handle.sessionCount()).toBe(2);
      expect((await post(handle.port, { jsonrpc: "2.0", id: 1, method: "ping" }, a)).status).toBe(200);
      // b is now the least recently used: a third session closes it.
      const c = (await post(handle.port, INIT)).session!;
      expect(handle.sessionCount()).toBe(2);
      expect((await post(handle.port, { jsonrpc: "2.0", id: 2, method: "ping" }, b)).status).toBe(404);
      expect(counter.cleaned).toBe(1);
      // Left alone, a and c expire; their servers are cleaned up.
      const deadline = Date.now() + 5_000;
      while (counter.cleaned < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(counter.cleaned).toBe(3);
      expect(handle.sessionCount()).toBe(0);
      expect((await post(handle.port, { jsonrpc: "2.0", id: 3, method: "ping" }, c)).status).toBe(404);
      // A batch or an invalid id never reaches a server.
      const batch = await post(handle.port, [INIT]);
      expect(batch.status).toBe(400);
      expect(JSON.parse(batch.body)).toMatchObject({ id: null, error: { code: -32600 } });
      expect(counter.created).toBe(3);
    } finally {
      await handle.close();
    }
  });
});
