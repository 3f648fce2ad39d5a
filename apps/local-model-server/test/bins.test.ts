import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInspectorCli, spawnStdioServer, writeTinyLlamaGguf } from "@local-mcp/core/testing";
import { APP_DIR, PROJECT, tempDir } from "./helpers.js";

// The built bins, driven the way clients drive them: the SDK client over stdio, the official
// MCP Inspector CLI, and the `local-model` CLI. Build first: pnpm --filter @local-mcp/local-model-server... build.
const MCP = join(APP_DIR, "dist/mcp.js");
const CLI = join(APP_DIR, "dist/cli.js");
const PLAN = ".planning/phases/01-data-foundation/01-01-PLAN.md";
const TOOLS = ["local_extract", "local_verify", "local_generate", "local_git", "local_analyze", "local_ask"];

let state: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;

beforeAll(async () => {
  expect(existsSync(MCP) && existsSync(CLI), "build the app first (pnpm --filter @local-mcp/local-model-server... build)").toBe(true);
  state = await tempDir("local-model-bins-");
  env = { LOCAL_MODEL_ROOTS: PROJECT, LOCAL_MODEL_STATE_DIR: state.path, LOCAL_MCP_LOG_LEVEL: "warn" };
});
afterAll(async () => {
  await state.remove();
});

function run(bin: string, args: string[], extraEnv: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env, ...extraEnv }, cwd: APP_DIR }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("local-model-mcp over stdio", () => {
  it("serves the five tools and the stats resource, with nothing but JSON-RPC on stdout", async () => {
    const server = await spawnStdioServer({ command: process.execPath, args: [MCP], env, cwd: APP_DIR });
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS);
      expect(tools.find((t) => t.name === "local_generate")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(tools.every((t) => t.outputSchema !== undefined && t.annotations?.readOnlyHint !== undefined)).toBe(true);
      const result = await server.client.callTool({
        name: "local_extract",
        arguments: { task_type: "frontmatter", files: [PLAN], extract: { fields: ["wave", "autonomous"] } },
      });
      expect(result.structuredContent).toMatchObject({
        success: true,
        engine: "deterministic",
        data: { results: { [PLAN]: { found: true, data: { wave: 1, autonomous: true } } } },
      });
      const { resources } = await server.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(["local://stats"]);
      server.assertCleanStdout();
    } finally {
      expect((await server.close()).code).toBe(0);
    }
    expect(server.stderr()).toMatch(/local-model-mcp 0\.1\.0 ready on stdio \(6 tools\)/);
  });

  it("prints truthful --help", async () => {
    const help = await run(MCP, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("local-model-mcp 0.1.0");
    expect(help.stdout).toContain("LOCAL_MODEL_MODEL_PATH");
    expect(help.stdout).toContain("--http PORT");
  });

  it("exits with the configuration problem instead of starting", async () => {
    const bad = await run(MCP, [], { LOCAL_MODEL_TIMEOUT_MS: "soon" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("LOCAL_MODEL_TIMEOUT_MS");
    expect(bad.stdout).toBe("");
  });
});

describe("the MCP Inspector CLI against local-model-mcp", () => {
  const server = [process.execPath, MCP];
  const options = () => ({ server, env, resolveFrom: import.meta.url, timeoutMs: 30_000 });

  it("lists the tools", async () => {
    const result = (await runInspectorCli({ ...options(), method: "tools/list" })) as { tools: { name: string; outputSchema?: unknown }[] };
    expect(result.tools.map((t) => t.name)).toEqual(TOOLS);
  });

  it("extracts PLAN frontmatter and verifies must-haves on the fixtures", async () => {
    const extract = (await runInspectorCli({
      ...options(),
      method: "tools/call",
      toolName: "local_extract",
      toolArgs: { task_type: "frontmatter", files: JSON.stringify([PLAN]), extract: JSON.stringify({ fields: ["wave", "depends_on"] }) },
    })) as { structuredContent: Record<string, unknown> };
    expect(extract.structuredContent).toMatchObject({
      success: true,
      data: { results: { [PLAN]: { found: true, data: { wave: 1, depends_on: [] } } } },
    });
    const verify = (await runInspectorCli({
      ...options(),
      method: "tools/call",
      toolName: "local_verify",
      toolArgs: {
        checks: JSON.stringify([
          {
            id: "DATA-01",
            description: "store hook",
            file: "src/stores/familyStore.ts",
            condition: { type: "exports", value: "useFamilyStore" },
          },
        ]),
        response_level: "standard",
      },
    })) as { structuredContent: Record<string, unknown> };
    expect(verify.structuredContent).toMatchObject({
      success: true,
      data: {
        passed: 1,
        failed: 0,
        results: [{ id: "DATA-01", status: "pass", evidence: "line 10: export const useFamilyStore = create<FamilyState>((set) => ({" }],
      },
    });
    // Two Inspector CLI runs, each a fresh Inspector and server: ~9 s each on a loaded 2-core machine.
  }, 90_000);
});

describe("the local-model CLI", () => {
  it("checks the configuration: no model is fine for deterministic tasks", async () => {
    const check = await run(CLI, ["config", "check"]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(`roots:            ${PROJECT}`);
    expect(check.stdout).toContain("model status:     OK — no model configured");
    const json = await run(CLI, ["config", "check", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, model: { configured: false }, templates: { count: 4 } });
  });

  it("loads a configured model and gets a schema-valid answer from it", async () => {
    const modelPath = join(state.path, "tiny.gguf");
    await writeTinyLlamaGguf(modelPath);
    const check = await run(CLI, ["config", "check"], {
      LOCAL_MODEL_MODEL_PATH: modelPath,
      LOCAL_MODEL_MODEL_GPU: "cpu",
      LOCAL_MODEL_MODEL_THREADS: "1",
      LOCAL_MODEL_MODEL_CONTEXT_SIZE: "2048",
    });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(`model:            GGUF ${modelPath} (gpu cpu, context 2048, threads 1, max tokens 1024)`);
    expect(check.stdout).toMatch(
      /model status: {5}OK — tiny\.gguf: loaded, answered schema-valid JSON — load \d+ ms, answer \d+ ms, confidence [\d.]+/,
    );
  });

  it("fails the check when the configured model cannot be loaded", async () => {
    const check = await run(CLI, ["config", "check"], { LOCAL_MODEL_MODEL_PATH: join(PROJECT, "README.md"), LOCAL_MODEL_MODEL_GPU: "cpu" });
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/model status: {5}FAILED — README\.md: /);
  });

  it("lists templates and reports configuration errors with exit code 2", async () => {
    const templates = await run(CLI, ["templates", "--json"]);
    expect((JSON.parse(templates.stdout) as { name: string }[]).map((t) => t.name)).toEqual(["plan", "state", "summary", "verification"]);
    const bad = await run(CLI, ["templates"], { LOCAL_MODEL_ROOTS: "/no/such/root" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^local-model: Root \/no\/such\/root does not exist/);
  });

  it("has help that matches its commands", async () => {
    const help = await run(CLI, ["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["config", "templates", "stats"]) expect(help.stdout).toContain(command);
    const check = await run(CLI, ["config", "check", "--help"]);
    expect(check.stdout).toContain("--no-load");
  });
});
