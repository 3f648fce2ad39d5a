/**
 * Every snippet a user copies to start a server — each `npx` line of the README's "Use a server"
 * and every fenced block of docs/clients.md — is read from the Markdown and run: the server it
 * names answers `tools/list` through the MCP SDK client and a tool call shows it found the
 * project, started the way the snippet's client starts it (Claude Code and a shell: in the
 * project; VS Code, Cursor, Claude Desktop: elsewhere, so only the snippet's variable can lead
 * the server to the project).
 *
 * The packages are not on the registry: they are packed with pnpm and installed with plain npm
 * into a temporary folder once per run (global-setup.ts, scripts/pack-install.mjs), and the test's
 * projects live under that folder. The snippet's own `npx` then runs — offline (`npm_config_offline`), so it can only
 * resolve a package already installed in the local project, as npm exec does before it would
 * download anything; a snippet naming a package or bin that is not installed fails.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PROJECT_VARIABLE,
  STARTS_IN_PROJECT,
  clientsLaunches,
  helpVariables,
  readmeLaunches,
  staticProblems,
  substituteProject,
  type Launch,
} from "./support/client-snippets.js";
import { clientSnippetsWorkspace, type PackedInstall } from "./support/client-snippets-install.js";

const REPO = resolve(import.meta.dirname, "../../..");
const README = readFileSync(join(REPO, "README.md"), "utf8");
const CLIENTS = readFileSync(join(REPO, "docs/clients.md"), "utf8");

/** Each package's example project (a copy under the install folder is what the servers see). */
const EXAMPLE: Record<string, string> = {
  "@local-mcp/catdoc-server": "catdoc",
  "@local-mcp/local-model-server": "local-model",
  "@local-mcp/mochi-server": "mochi",
  "@local-mcp/solo-assets-server": "solo-assets",
};
const PACKAGES = Object.keys(EXAMPLE);
const PLAN = ".planning/phases/01-habit-core/01-01-PLAN.md";

/** Parsing runs at collection so each snippet is its own test; a parse error fails the first test. */
let parsed: { launches: Launch[]; error?: undefined } | { launches: Launch[]; error: Error };
try {
  parsed = { launches: [...readmeLaunches(README), ...clientsLaunches(CLIENTS)] };
} catch (error) {
  parsed = { launches: [], error: error as Error };
}

interface Installed {
  bins: string[];
  variables: Set<string>;
}

let install: PackedInstall | undefined;
/** The test's folder inside the install: projects, the neutral directory, each process's HOME. */
let root = "";
let neutral = "";
const projects = new Map<string, string>();
const installed = new Map<string, Installed>();

/** A fresh HOME and XDG dirs per process: nothing touches the user's library, state or npm cache. */
function baseEnv(): { env: Record<string, string>; home: string } {
  const home = mkdtempSync(join(root, "home-"));
  return {
    home,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      XDG_DATA_HOME: join(home, "data"),
      XDG_STATE_HOME: join(home, "state"),
      XDG_CACHE_HOME: join(home, "cache"),
      // npx may use only what is installed: never the registry.
      npm_config_offline: "true",
      npm_config_cache: join(home, "npm-cache"),
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      LOCAL_MCP_LOG_LEVEL: "warn",
    },
  };
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  install = clientSnippetsWorkspace();
  root = install.work;
  // The projects live under the install folder, so npx finds the packages from there the way it
  // finds a project's own dependencies. mochi's example has its own package.json (npx stops
  // there), so its node_modules points at the install.
  for (const [pkg, example] of Object.entries(EXAMPLE)) {
    const project = join(root, "projects", example);
    cpSync(join(REPO, "examples", example), project, { recursive: true });
    if (existsSync(join(project, "package.json"))) symlinkSync(join(install.dir, "node_modules"), join(project, "node_modules"), "dir");
    projects.set(pkg, project);
  }
  // Where VS Code, Cursor and Claude Desktop start servers: not the project.
  neutral = join(root, "elsewhere");
  mkdirSync(neutral);
  for (const pkg of PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(install.dir, "node_modules", pkg, "package.json"), "utf8")) as {
      bin?: Record<string, string>;
    };
    const { env } = baseEnv();
    const help = run("npx", ["-y", pkg, "--help"], neutral, env);
    expect(help.status, `npx -y ${pkg} --help: ${help.stderr}`).toBe(0);
    installed.set(pkg, { bins: Object.keys(manifest.bin ?? {}), variables: helpVariables(help.stdout) });
  }
  // mochi serves the catalog `mochi index` writes (docs/clients.md says to run it first).
  const { env } = baseEnv();
  const index = run("npx", ["-p", "@local-mcp/mochi-server", "mochi", "index", "."], projects.get("@local-mcp/mochi-server") ?? "", env);
  expect(index.status, index.stderr).toBe(0);
}, 600_000);

afterAll(() => {
  install?.cleanup();
});

/** Calls a tool that shows the server found its project; throws with the answer when it did not. */
async function confirmProject(client: Client, launch: Launch, dataHome: string, env: Record<string, string>): Promise<void> {
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${launch.source}: ${name} failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
    return result.structuredContent as Record<string, unknown>;
  };
  switch (launch.pkg) {
    case "@local-mcp/catdoc-server": {
      const answer = (await call("catdoc_list_categories", { response_level: "standard" })) as { categories: { id: string }[] };
      expect(answer.categories.map((c) => c.id)).toEqual(expect.arrayContaining(["requirements", "design", "implementation"]));
      return;
    }
    case "@local-mcp/local-model-server": {
      const answer = (await call("local_extract", { task_type: "frontmatter", files: [PLAN], extract: { fields: ["phase"] } })) as {
        success: boolean;
        data: { results: Record<string, { found: boolean }> };
      };
      expect(answer.success, JSON.stringify(answer)).toBe(true);
      expect(answer.data.results[PLAN]?.found).toBe(true);
      return;
    }
    case "@local-mcp/mochi-server": {
      const answer = (await call("suggest_pattern", { goal: "add a new carrier that the tracker can find by name", limit: 1 })) as {
        patterns: unknown[];
      };
      expect(answer.patterns.length).toBeGreaterThan(0);
      return;
    }
    case "@local-mcp/solo-assets-server": {
      await call("list_functions", {});
      // The library is the user's one library, wherever the server was started.
      const library = env.SOLO_DB_PATH ?? join(dataHome, "local-mcp", "solo-assets.duckdb");
      expect(existsSync(library), `${launch.source}: no library at ${library}`).toBe(true);
      return;
    }
    default:
      throw new Error(`${launch.source}: ${launch.pkg} is not a server this test knows`);
  }
}

/** Where the snippet's client starts the server, and the environment it gives it. */
function placement(launch: Launch): { cwd: string; env: Record<string, string>; dataHome: string } {
  const project = projects.get(launch.pkg);
  if (project === undefined) throw new Error(`${launch.source}: no project for ${launch.pkg}`);
  const variable = PROJECT_VARIABLE[launch.pkg];
  // A snippet that names the project by its variable is started elsewhere: the variable must work alone.
  const named = variable !== undefined && launch.env[variable] !== undefined;
  const cwd = STARTS_IN_PROJECT[launch.client] && !named ? project : neutral;
  const { env } = baseEnv();
  const own = substituteProject(launch.env, project);
  return { cwd, env: { ...env, ...own }, dataHome: env.XDG_DATA_HOME ?? "" };
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolvePort(address.port) : reject(new Error("no port"))));
    });
  });
}

async function withClient(transport: Transport, body: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ name: "client-snippets-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

async function runServer(launch: Launch): Promise<void> {
  const { cwd, env, dataHome } = placement(launch);
  const transport = new StdioClientTransport({ command: launch.command, args: launch.args, cwd, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await withClient(transport, async (client) => {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      await confirmProject(client, launch, dataHome, env);
    });
  } catch (error) {
    throw new Error(
      `${launch.source} (cwd ${cwd === neutral ? "outside the project" : "the project"}): ${(error as Error).message}\n--- stderr ---\n${stderr}`,
    );
  }
}

async function runHttp(launch: Launch): Promise<void> {
  const documented = /--http\s+(\d+)/.exec(launch.args.join(" "))?.[1];
  expect(documented, `${launch.source}: --http PORT`).toBeDefined();
  expect(launch.url, `${launch.source}: the URL the client is given`).toBe(`http://127.0.0.1:${documented}/mcp`);
  // The documented port may be taken on this machine: the same snippet on a free one.
  const port = String(await freePort());
  const { cwd, env, dataHome } = placement(launch);
  const args = launch.args.map((a) => (a === documented ? port : a));
  const child = spawn(launch.command, args, { cwd, env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = new URL((launch.url ?? "").replace(`:${documented}/`, `:${port}/`));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await withClient(new StreamableHTTPClientTransport(url), async (client) => {
          const { tools } = await client.listTools();
          expect(tools.length).toBeGreaterThan(0);
          await confirmProject(client, launch, dataHome, env);
        });
        return;
      } catch (error) {
        const refused = /ECONNREFUSED|fetch failed/.test(String((error as Error).message) + String((error as { cause?: unknown }).cause));
        if (!refused || child.exitCode !== null || Date.now() > deadline)
          throw new Error(`${launch.source}: ${(error as Error).message}\n--- stderr ---\n${stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    // npx and the server it started are one process group: stop both.
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
}

function runCli(launch: Launch): void {
  const { cwd, env } = placement(launch);
  const result = run(launch.command, launch.args, cwd, env);
  expect(result.status, `${launch.source}\n${result.stderr}`).toBe(0);
}

describe("the snippets users copy (README 'Use a server', docs/clients.md)", () => {
  it("parse: every block is sh or json labelled with its file, every line is npx or claude mcp add", () => {
    if (parsed.error) throw parsed.error;
    expect(parsed.launches.length).toBeGreaterThan(0);
  });

  it("the README starts every server with one npx -y line, and mochi's catalog with npx -p … mochi index", () => {
    const launches = readmeLaunches(README);
    const servers = launches.filter((l) => l.kind === "server");
    expect(servers.map((l) => l.pkg).sort()).toEqual([...PACKAGES].sort());
    for (const l of servers) expect(l.args).toEqual(["-y", l.pkg]);
    expect(
      launches.some((l) => l.kind === "cli" && l.pkg === "@local-mcp/mochi-server" && l.bin === "mochi" && l.binArgs[0] === "index"),
    ).toBe(true);
  });

  it("docs/clients.md shows every server for Claude Code (--scope user), .mcp.json, VS Code, Cursor and Claude Desktop", () => {
    const launches = clientsLaunches(CLIENTS);
    for (const client of ["claude-code", "mcp.json", "vscode", "cursor", "claude-desktop"] as const) {
      expect(new Set(launches.filter((l) => l.client === client).map((l) => l.pkg)), client).toEqual(new Set(PACKAGES));
    }
    for (const pkg of PACKAGES) expect(CLIENTS).toMatch(new RegExp(`claude mcp add --scope user [a-z-]+ -- npx -y ${pkg}\\n`));
    expect(CLIENTS).toMatch(/`local` scope[^.]*only when Claude Code runs in the\s+directory where you ran the command/);
  });

  it("every snippet names an installed package, a bin it declares, variables its server reads, and the project where the client needs it", () => {
    const problems = parsed.launches.flatMap((l) => staticProblems(l, installed));
    expect(problems).toEqual([]);
  });

  it("the checks catch a wrong package, bin, key or variable", () => {
    const problemsOf = (readme: string, clients: string) => {
      try {
        return [...readmeLaunches(readme), ...clientsLaunches(clients)].flatMap((l) => staticProblems(l, installed));
      } catch (error) {
        return [(error as Error).message];
      }
    };
    expect(problemsOf(README, CLIENTS)).toEqual([]);
    const vscodeBlock = /```json \.vscode\/mcp\.json\n[\s\S]*?```/.exec(CLIENTS)?.[0] ?? "";
    const mutations: [string, string, string][] = [
      ["package", README.replace("npx -y @local-mcp/catdoc-server", "npx -y @local-mcp/catdoc"), CLIENTS],
      ["bin", README.replace("mochi-server mochi index", "mochi-server mochi-cli index"), CLIENTS],
      ["key", README, CLIENTS.replace(vscodeBlock, vscodeBlock.replace('"servers"', '"mcpServers"'))],
      ["variable", README, CLIENTS.replace('"CATDOC_PROJECT_PATH": "${workspaceFolder}"', '"CATDOC_PROJECT": "${workspaceFolder}"')],
      ["missing variable", README, CLIENTS.replace(',\n      "env": { "LOCAL_MODEL_ROOTS": "/path/to/your/project" }', "")],
    ];
    for (const [what, readme, clients] of mutations) {
      expect(readme === README && clients === CLIENTS, `the ${what} mutation changed nothing`).toBe(false);
      expect(problemsOf(readme, clients), `a wrong ${what} passed`).not.toEqual([]);
    }
  });

  // Snippets that start the same command with the same environment in the same place run once.
  const groups = new Map<string, Launch[]>();
  for (const launch of parsed.launches) {
    const inProject = STARTS_IN_PROJECT[launch.client] && Object.keys(launch.env).every((k) => k !== PROJECT_VARIABLE[launch.pkg]);
    const key = JSON.stringify([launch.kind, launch.command, launch.args, launch.env, inProject, launch.url]);
    groups.set(key, [...(groups.get(key) ?? []), launch]);
  }
  for (const same of groups.values()) {
    const launch = same[0] as Launch;
    const what =
      launch.kind === "cli"
        ? `npx -p ${launch.pkg} ${launch.bin} ${launch.binArgs.join(" ")} exits 0`
        : `npx ${launch.args.join(" ")} starts and finds the project`;
    // Each waits mostly on its server's start-up: a few run at once (vitest's maxConcurrency).
    it.concurrent(
      `${what} — ${same.map((l) => l.source).join("; ")}`,
      async () => {
        if (launch.kind === "cli") runCli(launch);
        else if (launch.kind === "http") await runHttp(launch);
        else await runServer(launch);
      },
      180_000,
    );
  }
});
