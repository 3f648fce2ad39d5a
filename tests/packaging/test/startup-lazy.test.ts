/**
 * Start fast (issue #14 item 4), in the spirit of the MCP SDK's barrelClean test: each built
 * `*-mcp` (apps/*\/dist, the bundles the packages ship) is started through the SDK client, answers
 * initialize and tools/list, and by then has loaded none of the heavy libraries — node-llama-cpp,
 * @duckdb/node-api, @google/genai, typescript. Those load when a tool first needs them. And no
 * bin's `--help` loads any of them.
 *
 * What a process loaded is observed from inside it: core's load observer is preloaded with
 * `node --import` (an ESM resolve hook through `module.register`, which also sees `import()` of
 * CommonJS packages and worker threads' imports, plus a `Module._load` hook for `require` and
 * `createRequire`) and writes every module to the file named by LOCAL_MCP_LOAD_LOG. Two probe
 * servers that load typescript (one by import(), one by require) show the check can fail.
 *
 * Also here, as the start that fails: every `*-mcp --http PORT` on a port in use prints one coded
 * line and exits 1 (issue #14 friction; core's test/light-main.test.ts covers the sample bin and
 * a port that needs privileges).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadedModules } from "../../../packages/core/src/testing/bin-loads.js";
import { LOAD_LOG_ENV, loadedPackages, readLoadLog } from "../../../packages/core/src/testing/load-log.js";
import { REPO, SERVERS } from "./support/workspace.js";

/** Never loaded by a start, initialize and tools/list, nor by `--help`. */
const HEAVY = ["node-llama-cpp", "@duckdb/node-api", "@google/genai", "typescript"];
const CORE_DIST = join(REPO, "packages/core/dist");
/** Core's built observer (what @local-mcp/core/testing's LOAD_OBSERVER_URL names). */
const OBSERVER = pathToFileURL(join(CORE_DIST, "testing/load-observer.js")).href;

let scratch = "";
let logs = 0;
beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "startup-lazy-")));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An empty project folder and a fresh HOME, as a user's client starts a server. */
function userEnv(log: string): { cwd: string; env: Record<string, string> } {
  const root = mkdtempSync(join(scratch, "run-"));
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(home);
  mkdirSync(cwd);
  return {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      XDG_DATA_HOME: join(home, "data"),
      XDG_STATE_HOME: join(home, "state"),
      XDG_CACHE_HOME: join(home, "cache"),
      XDG_CONFIG_HOME: join(home, "config"),
      LOCAL_MCP_LOG_LEVEL: "warn",
      [LOAD_LOG_ENV]: log,
    },
  };
}

/** Starts `node <file>` with the observer, sends initialize and tools/list, closes; what it loaded. */
async function startAndList(file: string): Promise<{ tools: number; heavy: string[]; modules: string[] }> {
  const log = join(scratch, `load-${logs++}.log`);
  const { cwd, env } = userEnv(log);
  const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", OBSERVER, file], cwd, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const client = new Client({ name: "startup-lazy", version: "0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    await client.close();
    // Everything the process (and its worker threads) loaded until it exited after close.
    const modules = readLoadLog(log);
    return { tools: tools.length, heavy: loadedPackages(modules, HEAVY), modules };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`${file}: ${(error as Error).message}\n${stderr}`);
  }
}

/** Runs `node <file> --help` with the observer; what it loaded. */
function helpLoads(file: string): { status: number | null; stdout: string; heavy: string[]; packages: string[] } {
  const log = join(scratch, `load-${logs++}.log`);
  const { cwd, env } = userEnv(log);
  const result = spawnSync(process.execPath, ["--import", OBSERVER, file, "--help"], { cwd, env, encoding: "utf8", timeout: 30_000 });
  const modules = readLoadLog(log);
  return {
    status: result.status,
    stdout: result.stdout,
    heavy: loadedPackages(modules, HEAVY),
    packages: [...loadedModules(modules).packages],
  };
}

describe("the load check can fail", () => {
  const typescriptPath = createRequire(join(REPO, "package.json")).resolve("typescript");
  // A real MCP server on core's light main whose start loads typescript, by import() or by require.
  const probe = (name: string, load: string) => {
    const file = join(scratch, `${name}.mjs`);
    writeFileSync(
      file,
      [
        `import { createRequire } from "node:module";`,
        load,
        `const { runServerMain } = await import(${JSON.stringify(pathToFileURL(join(CORE_DIST, "main.js")).href)});`,
        `await runServerMain({ app: { name: ${JSON.stringify(name)}, title: "Probe", version: "0.0.0", summary: "probe", env: [] }, factory: async () => {`,
        `  const { createSampleServer } = await import(${JSON.stringify(pathToFileURL(join(CORE_DIST, "sample/sample-server.js")).href)});`,
        `  return () => createSampleServer({ LOCAL_MCP_LOG_LEVEL: "warn" });`,
        `} });`,
      ].join("\n"),
    );
    return file;
  };

  it("sees typescript loaded with import() by a probe server", async () => {
    const file = probe("import-probe", `await import(${JSON.stringify(pathToFileURL(typescriptPath).href)});`);
    const result = await startAndList(file);
    expect(result.tools).toBeGreaterThan(0);
    expect(result.heavy).toEqual(["typescript"]);
  });

  it("sees typescript loaded with require by a probe server", async () => {
    const file = probe("require-probe", `createRequire(${JSON.stringify(join(REPO, "package.json"))})("typescript");`);
    const result = await startAndList(file);
    expect(result.heavy).toEqual(["typescript"]);
  });
});

describe("--http PORT on a port in use", () => {
  let holder: Server | undefined;
  let port = 0;
  beforeAll(async () => {
    holder = createServer();
    port = await new Promise<number>((resolve) => holder?.listen(0, "127.0.0.1", () => resolve((holder?.address() as AddressInfo).port)));
  });
  afterAll(() => holder?.close());

  // A start that cannot bind says so in one coded line and exits 1: no EADDRINUSE stack trace, never half-started.
  it.each(SERVERS.map((server) => ({ ...server, bin: `${server.cli}-mcp` })))("$bin prints one coded line and exits 1", (server) => {
    const { cwd, env } = userEnv(join(scratch, `load-${logs++}.log`));
    const result = spawnSync(process.execPath, [join(server.dir, "dist/mcp.js"), "--http", String(port)], {
      cwd,
      env,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toBe("");
    expect(
      result.stderr
        .trimEnd()
        .split("\n")
        .filter((line) => !/ (?:DEBUG|INFO|WARN) \[/.test(line)),
    ).toEqual([
      `${server.bin}: ADDRESS_IN_USE: port ${port} on 127.0.0.1 is already in use — choose another with --http PORT (or stop what holds it)`,
    ]);
  });
});

describe.each(SERVERS)("$app starts without its heavy libraries", (server) => {
  const bin = (name: string) => join(server.dir, "dist", `${name}.js`);

  it(`${server.cli}-mcp answers initialize and tools/list having loaded none of ${HEAVY.join(", ")}`, async () => {
    expect(existsSync(bin("mcp")), `${bin("mcp")} is not built: run pnpm build`).toBe(true);
    const result = await startAndList(bin("mcp"));
    expect(result.tools).toBeGreaterThan(0);
    // The bundle is what ran (not sources), so the check is about what users start.
    expect(result.modules.some((m) => m.startsWith(pathToFileURL(join(server.dir, "dist")).href))).toBe(true);
    expect(result.heavy).toEqual([]);
  });

  it.each(["mcp", "cli"])(`%s --help loads none of them`, (entry) => {
    const result = helpLoads(bin(entry));
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/usage/i);
    expect(result.heavy, `packages loaded: ${result.packages.join(", ")}`).toEqual([]);
  });
});
