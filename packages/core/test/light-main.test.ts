// The light entry (`@local-mcp/core/main`) and the `*-mcp` main: `--help` loads almost nothing,
// and `--http PORT` on a port that cannot be bound prints one coded line and exits 1.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { LOAD_LOG_ENV, loadedPackages, readLoadLog } from "../src/testing/index.js";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const SAMPLE_BIN = join(DIST, "sample/mcp.js");
// The built observer (the one in src/ is TypeScript): what @local-mcp/core/testing's LOAD_OBSERVER_URL names.
const LOAD_OBSERVER_URL = pathToFileURL(join(DIST, "testing/load-observer.js")).href;
const work = mkdtempSync(join(tmpdir(), "light-main-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: readonly string[], options: { env?: Record<string, string>; uid?: number; gid?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...args],
      { env: { ...process.env, ...options.env }, cwd: work, timeout: 15_000, uid: options.uid, gid: options.gid },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let logs = 0;
/** Runs node with the load observer; returns what it loaded. */
async function observed(args: readonly string[]): Promise<Run & { modules: string[] }> {
  const log = join(work, `load-${logs++}.log`);
  const result = await run(["--import", LOAD_OBSERVER_URL, ...args], { env: { [LOAD_LOG_ENV]: log } });
  return { ...result, modules: readLoadLog(log) };
}

/** Modules of core's dist a run loaded, relative to dist/ (e.g. `server/run-main.js`). */
function coreModules(modules: readonly string[]): string[] {
  const base = pathToFileURL(DIST).href;
  return modules
    .filter((m) => m.startsWith(base))
    .map((m) => m.slice(base.length))
    .sort();
}

const fromNodeModules = (modules: readonly string[]) => modules.filter((m) => m.includes("/node_modules/"));

describe("the load observer", () => {
  it("sees a package loaded by import, by import() and by require", async () => {
    const probe = join(work, "probe.mjs");
    writeFileSync(
      probe,
      [
        `import { createRequire } from "node:module";`,
        `await import(${JSON.stringify(pathToFileURL(join(DIST, "index.js")).href)});`,
        `createRequire(${JSON.stringify(join(DIST, "index.js"))})("ajv");`,
      ].join("\n"),
    );
    const result = await observed([probe]);
    expect(result.code).toBe(0);
    expect(loadedPackages(result.modules, ["@modelcontextprotocol/server", "zod", "ajv", "typescript"])).toEqual([
      "@modelcontextprotocol/server",
      "zod",
      "ajv",
    ]);
  });
});

describe("the light entry @local-mcp/core/main", () => {
  it("loads only run-main and the stdout guard: no MCP SDK, zod, ajv or other package", async () => {
    const result = await observed([
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(pathToFileURL(join(DIST, "main.js")).href)});`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(fromNodeModules(result.modules)).toEqual([]);
    expect(coreModules(result.modules)).toEqual(["main.js", "server/run-main.js", "server/stdout-guard.js"]);
  });

  it("the barrel (what app modules import) does not reach the HTTP stack or a heavy optional library", async () => {
    // An app bundle loads everything the barrel reaches statically (esbuild's code splitting keeps
    // every reachable module): Hono's globals alone load Node's fetch (~100 ms of start-up).
    const result = await observed([
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(pathToFileURL(join(DIST, "index.js")).href)});`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(
      loadedPackages(result.modules, [
        "@modelcontextprotocol/server",
        "@hono/node-server",
        "hono",
        "node-llama-cpp",
        "@google/genai",
        "typescript",
      ]),
    ).toEqual(["@modelcontextprotocol/server"]);
    expect(coreModules(result.modules)).not.toContain("server/run-http.js");
  });

  it("is what core's package.json exports as ./main", () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")) as {
      exports: Record<string, { import: string }>;
    };
    expect(pkg.exports["./main"]?.import).toBe("./dist/main.js");
  });

  it("a bin's --help and --version load no package and none of the server", async () => {
    for (const flag of ["--help", "--version"]) {
      const result = await observed([SAMPLE_BIN, flag]);
      expect(result.code, result.stderr).toBe(0);
      expect(fromNodeModules(result.modules)).toEqual([]);
      expect(coreModules(result.modules)).toEqual([
        "sample/mcp.js",
        "sample/sample-info.js",
        "server/run-main.js",
        "server/stdout-guard.js",
      ]);
    }
  });

  it("a stdio start loads the SDK only once the arguments ask for a server", async () => {
    // Bad usage is answered before anything is loaded, too.
    const result = await observed([SAMPLE_BIN, "--http", "seventy"]);
    expect(result.code).toBe(2);
    expect(fromNodeModules(result.modules)).toEqual([]);
  });
});

describe("--http PORT that cannot be bound", () => {
  let holder: Server | undefined;
  afterAll(() => holder?.close());

  it("a port in use: one coded line on stderr, exit 1, no stack trace", async () => {
    holder = createServer();
    const port = await new Promise<number>((resolve) =>
      holder!.listen(0, "127.0.0.1", () => resolve((holder!.address() as { port: number }).port)),
    );
    const result = await run([SAMPLE_BIN, "--http", String(port)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `local-mcp-sample: ADDRESS_IN_USE: port ${port} on 127.0.0.1 is already in use — choose another with --http PORT (or stop what holds it)\n`,
    );
  });

  const unprivileged = Number(
    readFileSync("/proc/sys/net/ipv4/ip_unprivileged_port_start", { encoding: "utf8", flag: "r" }).trim() || "1024",
  );
  const isRoot = process.getuid?.() === 0;
  // As root, the child runs as nobody, who must be able to reach the bin: a checkout under a
  // private directory (mktemp -d is 0700) cannot be run as nobody.
  const reachableByOthers = (file: string): boolean => {
    for (let path = file; path !== dirname(path); path = dirname(path)) {
      const mode = statSync(path).mode;
      if ((mode & (path === file ? 0o004 : 0o001)) === 0) return false;
    }
    return true;
  };
  // A kernel that lets anyone bind port 80 cannot show EACCES.
  it.skipIf(process.platform !== "linux" || unprivileged <= 80 || (isRoot && !reachableByOthers(SAMPLE_BIN)))(
    "a privileged port: one coded FORBIDDEN line, exit 1",
    async () => {
      const result = await run([SAMPLE_BIN, "--http", "80"], isRoot ? { uid: 65534, gid: 65534 } : {});
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        "local-mcp-sample: FORBIDDEN: no permission to listen on port 80 on 127.0.0.1 — ports below 1024 need privileges; choose one from 1024 to 65535 with --http PORT\n",
      );
    },
  );
});
