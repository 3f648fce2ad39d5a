/** The long-running commands through the built bin: `catdoc dashboard` and `catdoc mcp --dashboard`. */
import { request } from "node:http";
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
    expect(tools?.result?.tools).toHaveLength(19);
  });

  it("--port without --dashboard is bad usage", async () => {
    const mcp = startCatdoc(["mcp", "--port", "4000"], { cwd: await tempDir() });
    running.push(mcp);
    expect(await mcp.exited).toBe(2);
    expect(mcp.stdout()).toBe("");
    expect(mcp.stderr()).toContain("--port is the dashboard's port: use it with --dashboard");
  });
});
