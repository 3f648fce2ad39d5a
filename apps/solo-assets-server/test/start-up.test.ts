/**
 * Start fast (issue #14): the bins load what they need and no more.
 *
 * - `solo-assets-mcp` answers initialize and tools/list without DuckDB, @google/genai, the gate's
 *   tools (pyright, ruff-wasm), node-llama-cpp or typescript; its first query loads DuckDB.
 * - `--help` of both bins and of a subcommand loads no library, no zod and no MCP SDK: their
 *   entries statically reach only node builtins, core's light main and commander, and the
 *   JavaScript they load at run time stays small.
 *
 * The modules a process loaded are recorded by core's load observer (node --import).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LOAD_LOG_ENV, LOAD_OBSERVER_URL, loadedPackages, readLoadLog, spawnStdioServer } from "@local-mcp/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { tempLibrary, testEnv } from "./helpers/test-library.js";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const SRC = fileURLToPath(new URL("../src/", import.meta.url));
const library = tempLibrary();
afterAll(() => library.remove());

/** Loaded only when a tool needs them. */
const HEAVY = ["@duckdb/node-api", "@google/genai", "pyright", "@astral-sh/ruff-wasm-nodejs", "node-llama-cpp", "typescript"];
/** Not needed to print help (bundled or not). */
const NOT_FOR_HELP = [...HEAVY, "zod", "@modelcontextprotocol/server", "@modelcontextprotocol/core", "ajv", "hono", "@hono/node-server"];

function loadLog(): string {
  return join(mkdtempSync(join(tmpdir(), "solo-loads-")), "loads.log");
}

/** Bytes of the JavaScript files a process loaded from this app's dist/ (a bundle hides package names). */
function distBytes(modules: readonly string[]): number {
  let total = 0;
  for (const module of modules) {
    const path = module.startsWith("file://") ? fileURLToPath(module) : module;
    if (path.startsWith(DIST) && path.endsWith(".js")) total += statSync(path).size;
  }
  return total;
}

function runWithObserver(args: readonly string[], log: string): Promise<{ code: number; stdout: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", LOAD_OBSERVER_URL, ...args],
      { env: { ...testEnv(library.dbPath), [LOAD_LOG_ENV]: log }, timeout: 60_000 },
      (error, stdout) => done({ code: error ? Number(error.code) : 0, stdout }),
    );
  });
}

/** Bare specifiers a source file reaches through static imports (type-only imports and `import()` excluded). */
function staticPackages(entry: string): { packages: Set<string>; files: Set<string> } {
  const packages = new Set<string>();
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;"']*?\sfrom\s+)?["']([^"']+)["']/gm)) {
      const specifier = match[1] ?? "";
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  };
  visit(join(SRC, entry));
  return { packages, files };
}

describe("start-up of the solo-assets bins", () => {
  it("the entries statically import only node builtins, core's light main and commander", () => {
    const mcp = staticPackages("mcp.ts");
    expect([...mcp.packages].filter((p) => !p.startsWith("node:"))).toEqual(["@local-mcp/core/main"]);
    const cli = staticPackages("cli.ts");
    expect([...cli.packages].filter((p) => !p.startsWith("node:")).sort()).toEqual(["commander"]);
    // The command definitions are loaded for --help; their implementations are not.
    expect([...cli.files].map((f) => f.slice(SRC.length)).filter((f) => /actions?\.ts$|services|config\.ts$/.test(f))).toEqual([]);
  });

  it("solo-assets-mcp answers initialize and tools/list without DuckDB, Gemini or the gate's tools; the first query loads DuckDB", async () => {
    const log = loadLog();
    const server = await spawnStdioServer({
      command: process.execPath,
      args: ["--import", LOAD_OBSERVER_URL, join(DIST, "mcp.js")],
      env: { ...testEnv(library.dbPath), [LOAD_LOG_ENV]: log },
      readyTimeoutMs: 60_000,
    });
    try {
      const { tools } = await server.client.listTools();
      expect(tools).toHaveLength(7);
      expect(loadedPackages(readLoadLog(log), HEAVY)).toEqual([]);
      // The observer sees a lazily loaded package once a call needs it (so the check above can fail).
      const listed = await server.client.callTool({ name: "list_functions", arguments: {} });
      expect(listed.isError).not.toBe(true);
      expect(loadedPackages(readLoadLog(log), HEAVY)).toEqual(["@duckdb/node-api"]);
    } finally {
      await server.close();
      rmSync(dirname(log), { recursive: true, force: true });
    }
  }, 120_000);

  it("--help of both bins and of a subcommand loads no library, zod or SDK, and little JavaScript", async () => {
    for (const args of [
      ["mcp.js", "--help"],
      ["cli.js", "--help"],
      ["cli.js", "save", "--help"],
      ["mcp.js", "--version"],
    ]) {
      const log = loadLog();
      try {
        const [bin = "", ...rest] = args;
        const ran = await runWithObserver([join(DIST, bin), ...rest], log);
        expect(ran.code, args.join(" ")).toBe(0);
        expect(ran.stdout.length).toBeGreaterThan(0);
        const modules = readLoadLog(log);
        expect(loadedPackages(modules, NOT_FOR_HELP), args.join(" ")).toEqual([]);
        // zod alone is ~750 KB bundled, the SDK ~200 KB, the library's code ~300 KB; help needs
        // commander (~125 KB) and the command definitions.
        expect(distBytes(modules), args.join(" ")).toBeLessThan(250_000);
      } finally {
        rmSync(dirname(log), { recursive: true, force: true });
      }
    }
  }, 120_000);
});
