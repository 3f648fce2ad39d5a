import { fileURLToPath } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { spawnStdioServer } from "../src/testing/index.js";

// The built sample bin (turbo builds before tests).
const SAMPLE_BIN = fileURLToPath(new URL("../dist/sample/mcp.js", import.meta.url));

describe("stdio runner (spawned bin, real SDK client)", () => {
  it("serves tools and resources; stdout carries only JSON-RPC; stdin close shuts it down cleanly", async () => {
    const proc = await spawnStdioServer({ command: process.execPath, args: [SAMPLE_BIN], env: { LOCAL_MCP_LOG_LEVEL: "debug" } });
    const { tools } = await proc.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "wait"]);
    const result = (await proc.client.callTool({
      name: "echo",
      arguments: { text: "hello world", response_level: "standard" },
    })) as CallToolResult;
    expect(result.structuredContent).toEqual({ text: "hello world", length: 11, words: 2 });
    const bad = (await proc.client.callTool({ name: "echo", arguments: { text: 5 } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    const info = await proc.client.readResource({ uri: "sample://server-info" });
    expect(info.contents[0]?.mimeType).toBe("application/json");
    await proc.client.ping();

    expect(proc.stdoutLines.length).toBeGreaterThanOrEqual(5);
    proc.assertCleanStdout();
    expect(proc.nonJsonRpcLines).toEqual([]);
    // the logs went to stderr
    expect(proc.stderr()).toMatch(/ready on stdio \(2 tools\)/);

    const exit = await proc.close();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(proc.stderr()).toMatch(/shutting down \(stdin closed\)/);
    // exactly once: closing the server closes the transport, which must not start a second shutdown
    expect(proc.stderr().match(/shutting down/g)).toHaveLength(1);
  });

  it.each(["SIGTERM", "SIGINT"] as const)("shuts down cleanly on %s", async (signal) => {
    const proc = await spawnStdioServer({ command: process.execPath, args: [SAMPLE_BIN] });
    await proc.client.ping();
    const exited = new Promise<number | null>((resolve) => proc.child.once("exit", (code) => resolve(code)));
    proc.child.kill(signal);
    expect(await exited).toBe(0);
    expect(proc.stderr()).toContain(`shutting down (${signal})`);
  });

  it("--help tells the truth and --http refuses a bad port", async () => {
    const { execFile } = await import("node:child_process");
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [SAMPLE_BIN, ...args], (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--http PORT");
    expect(help.stdout).toContain("LOCAL_MCP_RESPONSE_LEVEL");
    const badPort = await run(["--http", "seventy"]);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/--http needs a port number/);
    const unknown = await run(["--frobnicate"]);
    expect(unknown.code).toBe(2);
  });
});
