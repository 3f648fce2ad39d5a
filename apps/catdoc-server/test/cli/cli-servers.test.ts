/** The long-running commands through the built bin: `catdoc dashboard` and `catdoc mcp --dashboard`. */
import { writeFile } from "node:fs/promises";
import { request } from "node:http";
import { createServer } from "node:net";
import type { Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { copyExample, useTempDirs } from "../domain/helpers.js";
import { assertBuilt, startCatdoc } from "./run-catdoc.js";
import type { RunningCatdoc } from "./run-catdoc.js";

beforeAll(assertBuilt);
const tempDir = useTempDirs();
const running: RunningCatdoc[] = [];
afterEach(async () => {
  for (const process of running.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) {
      process.child.kill("SIGKILL");
      await process.exited;
    }
  }
});

function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    })
      .on("error", reject)
      .end();
  });
}

/** A port that was free a moment ago (listen on 0, close). */
async function freePort(): Promise<number> {
  const server = await listening(0);
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listening(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** POSTs an MCP initialize to a Streamable HTTP endpoint; resolves with the HTTP status. */
function postInitialize(url: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (res) => {
        res.resume().on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject).end(body);
  });
}

describe("catdoc dashboard", () => {
  it("prints its URL on stderr once listening, serves the API, and stops on SIGINT with exit 0", async () => {
    const root = await copyExample(await tempDir(), "dev-project");
    const dashboard = startCatdoc(["dashboard", "--port", "0"], { cwd: root });
    running.push(dashboard);
    const [, url] = await dashboard.waitForStderr(/CatDoc dashboard listening on (http:\/\/127\.0\.0\.1:\d+\/)/);
    const health = await getJson(`${url}api/health`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ok", project: { root, initialized: true } });
    const categories = await getJson(`${url}api/categories`);
    expect((categories.body["categories"] as unknown[]).length).toBe(5);
    dashboard.child.kill("SIGINT");
    expect(await dashboard.exited).toBe(0);
    expect(dashboard.stderr()).toContain("Dashboard stopped (SIGINT).");
    expect(dashboard.stdout()).toBe("");
  });

  it("fails with exit 1 when its port is taken", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const first = startCatdoc(["dashboard", "--port", "0"], { cwd: root });
    running.push(first);
    const [, port] = await first.waitForStderr(/listening on http:\/\/127\.0\.0\.1:(\d+)\//);
    const second = startCatdoc(["dashboard", "--port", port ?? ""], { cwd: root });
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toBe(`catdoc: Port ${port} on 127.0.0.1 is already in use; choose another port (--port)\n`);
  });
});

describe("catdoc mcp", () => {
  it("serves MCP on stdio (stdout JSON-RPC only) and, with --dashboard, the dashboard whose URL it prints on stderr", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const mcp = startCatdoc(["mcp", "--dashboard", "--port", "0"], { cwd: root });
    running.push(mcp);
    const [, url] = await mcp.waitForStderr(/CatDoc dashboard: (http:\/\/127\.0\.0\.1:\d+\/)/);
    await mcp.waitForStderr(/ready on stdio/);
    mcp.child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } })}\n`,
    );
    mcp.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    mcp.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`no tools/list answer; stdout: ${mcp.stdout()}`)), 15_000);
      const check = () => {
        if (!mcp.stdout().includes('"id":2')) return;
        clearTimeout(deadline);
        mcp.child.stdout.off("data", check);
        resolve();
      };
      mcp.child.stdout.on("data", check);
      check();
    });
    const health = await getJson(`${url}api/health`);
    expect(health.body).toMatchObject({ status: "ok", project: { root, initialized: true } });
    const validate = await getJson(`${url}api/validate`);
    expect(validate.body).toMatchObject({ isValid: true, summary: { totalWarnings: 3 } });

    mcp.child.stdin.end();
    expect(await mcp.exited).toBe(0);
    const lines = mcp.stdout().trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    const tools = lines.map((line) => JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } }).find((m) => m.id === 2);
    expect(tools?.result?.tools).toHaveLength(22);
  });

  it("--port without --dashboard is bad usage", async () => {
    const mcp = startCatdoc(["mcp", "--port", "4000"], { cwd: await tempDir() });
    running.push(mcp);
    expect(await mcp.exited).toBe(2);
    expect(mcp.stdout()).toBe("");
    expect(mcp.stderr()).toContain("--port is the dashboard's port: use it with --dashboard");
  });

  it("--dashboard --http PORT where PORT is the dashboard's configured port: both start, the dashboard on another port", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const port = await freePort();
    await writeFile(join(root, ".catdoc", "config.yaml"), `dashboard:\n  port: ${port}\n`);
    const mcp = startCatdoc(["mcp", "--dashboard", "--http", String(port)], { cwd: root });
    running.push(mcp);
    await mcp.waitForStderr(new RegExp(`ready on http://127\\.0\\.0\\.1:${port}/mcp`));
    const [, url, dashboardPort] = await mcp.waitForStderr(/CatDoc dashboard: (http:\/\/127\.0\.0\.1:(\d+)\/)/);
    expect(Number(dashboardPort)).not.toBe(port);
    expect(mcp.stderr()).toContain(`the dashboard's port ${port} is the MCP endpoint's (--http): the dashboard takes a free port instead`);
    expect(await postInitialize(`http://127.0.0.1:${port}/mcp`)).toBe(200);
    expect((await getJson(`${url}api/health`)).body).toMatchObject({ status: "ok" });
    mcp.child.kill("SIGTERM");
    expect(await mcp.exited).toBe(0);
    expect(mcp.stdout()).toBe("");
  });

  it("--dashboard --http 3917 (the dashboard's default port) serves both, on two ports", async (context) => {
    const taken = await listening(3917).then(
      (server) => new Promise<boolean>((resolve) => server.close(() => resolve(false))),
      () => true,
    );
    if (taken) context.skip("port 3917 is in use on this machine (the case above covers the same rule with a free port)");
    const mcp = startCatdoc(["mcp", "--dashboard", "--http", "3917"], { cwd: await copyExample(await tempDir(), "dev-project") });
    running.push(mcp);
    await mcp.waitForStderr(/ready on http:\/\/127\.0\.0\.1:3917\/mcp/);
    const [, url] = await mcp.waitForStderr(/CatDoc dashboard: (http:\/\/127\.0\.0\.1:\d+\/)/);
    expect(url).not.toContain(":3917/");
    expect(await postInitialize("http://127.0.0.1:3917/mcp")).toBe(200);
    expect((await getJson(`${url}api/health`)).status).toBe(200);
    mcp.child.kill("SIGTERM");
    expect(await mcp.exited).toBe(0);
  });

  it("the same port for --port and --http is bad usage: one coded line, exit 2, nothing started", async () => {
    const port = await freePort();
    const mcp = startCatdoc(["mcp", "--dashboard", "--port", String(port), "--http", String(port)], { cwd: await tempDir() });
    running.push(mcp);
    expect(await mcp.exited).toBe(2);
    expect(mcp.stdout()).toBe("");
    expect(mcp.stderr()).toBe(
      `catdoc: USAGE: --port and --http are both ${port}: the dashboard and the MCP endpoint need a port each — see \`catdoc --help\` or \`catdoc <command> --help\`\n`,
    );
  });

  it("an --http port in use ends the process with one line and exit 1, before any dashboard starts", async () => {
    const blocker = await listening(0);
    const { port } = blocker.address() as { port: number };
    try {
      const mcp = startCatdoc(["mcp", "--dashboard", "--port", "0", "--http", String(port)], {
        cwd: await copyExample(await tempDir(), "math-docs"),
      });
      running.push(mcp);
      expect(await mcp.exited).toBe(1);
      expect(mcp.stdout()).toBe("");
      expect(mcp.stderr()).not.toContain("CatDoc dashboard:");
      expect(mcp.stderr().trim().split("\n")).toHaveLength(1);
      expect(mcp.stderr()).toContain(`ADDRESS_IN_USE: port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
