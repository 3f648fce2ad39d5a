import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { runInspectorCli, spawnStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { TEST_ENV, writeTinyModelFiles, type TinyModelFiles } from "./helpers/tiny-model.js";
import { resourceText } from "./helpers/resource-text.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let repo: string;
let catalog: string;
let model: TinyModelFiles;

beforeAll(async () => {
  repo = copyFixtureRepo();
  catalog = join(repo, ".mochi", "catalog.json");
  await indexInto(repo);
  model = await writeTinyModelFiles();
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(model.dir, { recursive: true, force: true });
});

function run(bin: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("the bins", () => {
  it("mochi-mcp --help lists the MOCHI_ variables; --version prints the version", async () => {
    const help = await run(MCP, ["--help"]);
    expect(help.code).toBe(0);
    for (const name of [
      "MOCHI_MODEL",
      "MOCHI_ADAPTER",
      "MOCHI_CATALOG",
      "MOCHI_GPU",
      "MOCHI_THREADS",
      "MOCHI_CONTEXT_SIZE",
      "MOCHI_CONTEXT",
      "MOCHI_REQUIRE_ADAPTER",
      "MOCHI_MEMORY_BOUND",
      "MOCHI_DEADLINE_MS",
    ]) {
      expect(help.stdout).toContain(name);
    }
    expect((await run(MCP, ["--version"])).stdout).toBe("0.1.0\n");
    expect((await run(CLI, ["--version"])).stdout).toBe("0.1.0\n");
  });

  it("mochi-mcp refuses a bad setting at start, naming the variable", async () => {
    const bad = await run(MCP, [], { MOCHI_GPU: "tpu" });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("MOCHI_GPU");
  });
});

describe("mochi-mcp over stdio", () => {
  it("preloads the model with progress on stderr, serves every tool, and keeps stdout JSON-RPC only", async () => {
    const server = await spawnStdioServer({
      command: process.execPath,
      args: [MCP],
      env: { ...TEST_ENV, LOCAL_MCP_LOG_LEVEL: "info", MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora, MOCHI_CATALOG: catalog },
      // Ready when it serves stdio and the background preload has finished: no sleeps.
      readyPattern: /ready on stdio[\s\S]*model ready|model ready[\s\S]*ready on stdio/,
    });
    try {
      expect(server.stderr()).toMatch(/loading model 100%/);
      const { tools } = await server.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["domain_query", "complete_code", "suggest_pattern"]);
      const completed = (await server.client.callTool({
        name: "complete_code",
        arguments: { prefix: "const x = ", max_tokens: 8 },
      })) as CallToolResult;
      expect(completed.isError).toBeFalsy();
      const asked = (await server.client.callTool({
        name: "domain_query",
        arguments: { instruction: "Where do tests live?", max_tokens: 8 },
      })) as CallToolResult;
      expect((asked.structuredContent as { sources: string[] }).sources.length).toBeGreaterThan(0);
      const suggested = (await server.client.callTool({
        name: "suggest_pattern",
        arguments: { goal: "custom error classes", response_level: "standard" },
      })) as CallToolResult;
      expect((suggested.structuredContent as { ranked_by: string }).ranked_by).toBe("embeddings+model");
      expect(resourceText(await server.client.readResource({ uri: "mochi://conventions/naming" }))).toContain("# Naming conventions");
      server.assertCleanStdout();
    } finally {
      const exit = await server.close();
      expect(exit.code).toBe(0);
    }
  });
});

describe("the MCP Inspector CLI (an independent client) against mochi-mcp", () => {
  const server = [process.execPath, MCP];
  const env = () => ({ MOCHI_CATALOG: catalog, LOCAL_MCP_LOG_LEVEL: "warn" });
  const resolveFrom = fileURLToPath(new URL("../package.json", import.meta.url));

  it("lists the tools and the resources", async () => {
    const tools = (await runInspectorCli({ server, method: "tools/list", env: env(), resolveFrom })) as {
      tools: Array<{ name: string; outputSchema?: unknown }>;
    };
    expect(tools.tools.map((t) => t.name)).toEqual(["domain_query", "complete_code", "suggest_pattern"]);
    expect(tools.tools.every((t) => t.outputSchema !== undefined)).toBe(true);
    const resources = (await runInspectorCli({ server, method: "resources/list", env: env(), resolveFrom })) as {
      resources: Array<{ uri: string }>;
    };
    const uris = resources.resources.map((r) => r.uri);
    expect(uris).toContain("mochi://stats");
    expect(uris).toContain("mochi://patterns/registry");
    expect(uris).toContain("mochi://conventions/error-handling");
  });

  it("calls suggest_pattern from the catalog alone", async () => {
    const result = (await runInspectorCli({
      server,
      method: "tools/call",
      toolName: "suggest_pattern",
      toolArgs: { goal: "register handlers by name", limit: "2" },
      env: env(),
      resolveFrom,
    })) as { structuredContent: { patterns: Array<{ name: string; relevance: number }> } };
    expect(result.structuredContent.patterns).toHaveLength(2);
    expect(result.structuredContent.patterns[0]?.name).toBe("registry");
  });
});
