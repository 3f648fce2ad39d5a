/**
 * Security review (issue #8, part 5), MCP over HTTP: every `*-mcp --http 0` listens on
 * 127.0.0.1 only (the kernel's socket table shows no other address, and this machine's other
 * addresses — its interfaces, 127.0.0.2, ::1 — are refused), answers a foreign Host or Origin
 * with 403 before anything happens (no session is created, an existing one is neither used nor
 * closed), and sends no CORS header that would let a page of another origin read an answer.
 * The official suite's dns-rebinding-protection scenario (conformance.test.ts) and core's
 * http.test.ts check the same guard from other angles.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServerProcess } from "./support/http-server.js";
import { corsHeaders, listeningAddresses, otherAddresses, rawRequest, tryConnect } from "./support/loopback-probe.js";
import { SERVERS } from "./support/servers.js";

const ACCEPT = "application/json, text/event-stream";
const initialize = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "security", version: "0" } },
  });
const toolsList = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: {} });

describe.each(SERVERS)("$name --http 0: loopback only, Host and Origin checked", (server) => {
  let dir: string;
  let http: HttpServerProcess;
  let port: number;
  const own = () => ({ host: `127.0.0.1:${port}`, accept: ACCEPT, "content-type": "application/json" });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `security-${server.name}-`));
    http = await startHttpServer(server, await server.env(dir), dir);
    port = Number(new URL(http.url).port);
  });

  afterAll(async () => {
    await http?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("listens on 127.0.0.1 and nowhere else", async () => {
    expect(http.url).toBe(`http://127.0.0.1:${port}/mcp`);
    expect(listeningAddresses(port)).toEqual(["127.0.0.1"]);
    for (const address of otherAddresses()) {
      expect(await tryConnect(address, port), `${address}:${port}`).not.toBe("connected");
    }
    expect(await tryConnect("127.0.0.1", port)).toBe("connected");
  });

  it("refuses a foreign Host or Origin with 403 and creates no session", async () => {
    const refusedHeaders: Record<string, string>[] = [
      { host: `evil.example:${port}` },
      { host: `127.0.0.1.evil.example:${port}` },
      { host: `127.0.0.1:${port + 1}` },
      { host: "127.0.0.1" },
      { origin: "http://evil.example" },
      { origin: "null" },
      { origin: `https://127.0.0.1:${port}` },
      { origin: `http://127.0.0.1:${port + 1}` },
      { origin: `http://localhost.evil.example:${port}` },
    ];
    for (const headers of refusedHeaders) {
      const answer = await rawRequest(port, { method: "POST", path: "/mcp", headers: { ...own(), ...headers }, body: initialize(1) });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.headers["mcp-session-id"]).toBeUndefined();
      expect(corsHeaders(answer)).toEqual([]);
    }
    // Its own origin passes (the check is not a blanket refusal).
    const ok = await rawRequest(port, {
      method: "POST",
      path: "/mcp",
      headers: { ...own(), origin: `http://127.0.0.1:${port}` },
      body: initialize(2),
    });
    expect(ok.status).toBe(200);
    const session = ok.headers["mcp-session-id"];
    expect(typeof session).toBe("string");
    await rawRequest(port, { method: "DELETE", path: "/mcp", headers: { ...own(), "mcp-session-id": String(session) } });
  });

  it("does not let a foreign Origin use or close an existing session", async () => {
    const opened = await rawRequest(port, { method: "POST", path: "/mcp", headers: own(), body: initialize(1) });
    const session = String(opened.headers["mcp-session-id"]);
    const withSession = { ...own(), "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    await rawRequest(port, {
      method: "POST",
      path: "/mcp",
      headers: withSession,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const foreign = { ...withSession, origin: "http://evil.example" };
    const call = await rawRequest(port, { method: "POST", path: "/mcp", headers: foreign, body: toolsList(2) });
    expect(call.status).toBe(403);
    expect(call.body).not.toContain('"tools"');
    expect((await rawRequest(port, { method: "DELETE", path: "/mcp", headers: foreign })).status).toBe(403);
    expect((await rawRequest(port, { method: "GET", path: "/mcp", headers: { ...foreign, accept: "text/event-stream" } })).status).toBe(
      403,
    );
    // The session is still there and answers its own client.
    const still = await rawRequest(port, { method: "POST", path: "/mcp", headers: withSession, body: toolsList(3) });
    expect(still.status).toBe(200);
    expect(still.body).toContain('"tools"');
    expect((await rawRequest(port, { method: "DELETE", path: "/mcp", headers: withSession })).status).toBe(200);
  });

  it("sends no CORS header: a page of another origin cannot read an answer or pass a preflight", async () => {
    const preflight = await rawRequest(port, {
      method: "OPTIONS",
      path: "/mcp",
      headers: {
        host: `127.0.0.1:${port}`,
        origin: "http://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,mcp-session-id",
      },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(corsHeaders(preflight)).toEqual([]);
    const sameOrigin = await rawRequest(port, { method: "OPTIONS", path: "/mcp", headers: { host: `127.0.0.1:${port}` } });
    expect(corsHeaders(sameOrigin)).toEqual([]);
    const answer = await rawRequest(port, { method: "POST", path: "/mcp", headers: own(), body: initialize(1) });
    expect(corsHeaders(answer)).toEqual([]);
    await rawRequest(port, {
      method: "DELETE",
      path: "/mcp",
      headers: { ...own(), "mcp-session-id": String(answer.headers["mcp-session-id"]) },
    });
  });
});
