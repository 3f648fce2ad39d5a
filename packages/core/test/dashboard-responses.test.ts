import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_CSP, HttpError, readJsonObject, sendAsset, sendJson, type ReadJsonOptions } from "../src/index.js";

/** One server: /asset and /json answer; /body?options reads the body and echoes it or the HttpError. */
let server: Server;
let base: string;

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const headOnly = req.method === "HEAD";
  if (url.pathname === "/asset") return sendAsset(res, "<!doctype html><p>hi</p>", "text/html; charset=utf-8", { headOnly });
  if (url.pathname === "/json") return sendJson(res, 201, { ok: true }, { headOnly, headers: { Allow: "GET", "Cache-Control": "public" } });
  const options = JSON.parse(url.searchParams.get("options") ?? "{}") as ReadJsonOptions;
  try {
    sendJson(res, 200, await readJsonObject(req, options));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    sendJson(res, error.status, { code: error.code, message: error.message });
  }
}

beforeAll(async () => {
  server = createServer((req, res) => void route(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

const body = (options: ReadJsonOptions, init: { headers?: Record<string, string>; body?: string }) =>
  call(`/body?options=${encodeURIComponent(JSON.stringify(options))}`, { method: "POST", ...init });

describe("dashboard HTTP responses", () => {
  it("a page carries the one CSP (no inline script or style, no framing) and the security headers", async () => {
    const page = await call("/asset");
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self';");
    expect(DASHBOARD_CSP).toContain("style-src 'self';");
    expect(DASHBOARD_CSP).not.toContain("unsafe-inline");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(page.headers).toMatchObject({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "cross-origin-resource-policy": "same-origin",
      "cache-control": "no-store",
    });
  });

  it("JSON answers keep their extra headers but never lose a security header to them; HEAD sends no body", async () => {
    const json = await call("/json");
    expect(json.status).toBe(201);
    expect(JSON.parse(json.text)).toEqual({ ok: true });
    expect(json.headers.allow).toBe("GET");
    expect(json.headers["cache-control"]).toBe("no-store");
    const head = await call("/json", { method: "HEAD" });
    expect(head.headers["content-length"]).toBe(json.headers["content-length"]);
    expect(head.text).toBe("");
  });

  it("reads a JSON object body; refuses bad JSON, a non-object, an oversized body, and a wrong type when asked", async () => {
    const json = { "content-type": "application/json" };
    expect(JSON.parse((await body({}, { headers: json, body: '{"a":1}' })).text)).toEqual({ a: 1 });
    expect((await body({}, { body: "{nope" })).status).toBe(400);
    expect((await body({}, { body: "[1]" })).status).toBe(400);
    expect((await body({}, { body: "" })).status).toBe(400);
    expect(JSON.parse((await body({ emptyAsObject: true }, { body: "" })).text)).toEqual({});
    const big = await body({ maxBytes: 10 }, { body: JSON.stringify({ a: "x".repeat(20) }) });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.text)).toMatchObject({ code: "INVALID_INPUT" });
    const form = await body({ requireJsonType: true }, { headers: { "content-type": "text/plain" }, body: "{}" });
    expect(form.status).toBe(415);
    expect((await body({ requireJsonType: true }, { headers: json, body: "{}" })).status).toBe(200);
  });
});
