/**
 * The servers as a user gets them (issue #14): every publishable package packed with pnpm and
 * installed with plain npm into an empty folder outside the workspace (global-setup.ts, through
 * scripts/pack-install.mjs). Each server's default bin — the one `npx -y <package>` runs — answers
 * tools/list through the MCP SDK client and does one real piece of work on a copy of examples/;
 * every other bin answers --help; `npm publish --dry-run` of each tarball has nothing to say
 * about bins.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installedPackage, packedInstall } from "./support/installed.js";
import { REPO, SERVERS } from "./support/workspace.js";

let scratch = "";
beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "packed-install-")));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A clean environment: PATH only, and a fresh HOME and XDG folders (no user library, state or config). */
function userEnv(): Record<string, string> {
  const home = mkdtempSync(join(scratch, "home-"));
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_CONFIG_HOME: join(home, "config"),
    LOCAL_MCP_LOG_LEVEL: "warn",
  };
}

/** A copy of examples/<name> to work on. */
function exampleCopy(name: string): string {
  const dir = join(mkdtempSync(join(scratch, `${name}-`)), name);
  cpSync(join(REPO, "examples", name), dir, { recursive: true });
  return dir;
}

/** The installed bin as npm linked it: node_modules/.bin/<bin>, run directly (shebang, execute bit). */
function linkedBin(bin: string): string {
  return join(packedInstall().dir, "node_modules", ".bin", bin);
}

async function connect(bin: string, cwd: string, env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: linkedBin(bin), args: [], cwd, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "packed-install-test", version: "0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function callTool(client: Client, name: string, args: Record<string, unknown>, timeout = 60_000): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args }, { timeout });
  expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent ?? result.content)}`).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

describe("the packed install", () => {
  it("holds every server package, outside the workspace", () => {
    const install = packedInstall();
    expect(install.dir.startsWith(REPO)).toBe(false);
    expect(install.packages.map((pkg) => pkg.name).sort()).toEqual(SERVERS.map((server) => server.name).sort());
  });
});

describe("catdoc-server (npx -y @local-mcp/catdoc-server)", () => {
  it("lists its tools and validates a copy of examples/catdoc found from its working directory", async () => {
    const project = exampleCopy("catdoc");
    const { client } = await connect("catdoc-server", project, userEnv());
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("catdoc_validate");
      const report = await callTool(client, "catdoc_validate", { response_level: "standard" });
      expect(report.isValid).toBe(true);
      expect((report.summary as { categoriesChecked: number }).categoriesChecked).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});

describe("local-model-server (npx -y @local-mcp/local-model-server)", () => {
  it("lists its tools and extracts a PLAN's frontmatter from a copy of examples/local-model", async () => {
    const project = exampleCopy("local-model");
    const plan = ".planning/phases/01-habit-core/01-01-PLAN.md";
    const { client } = await connect("local-model-server", project, userEnv());
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("local_extract");
      const extract = await callTool(client, "local_extract", {
        task_type: "frontmatter",
        files: [plan],
        extract: { fields: ["phase", "plan", "wave"] },
      });
      const result = (extract.data as { results: Record<string, { found: boolean; data: Record<string, unknown> }> }).results[plan];
      expect(result?.found).toBe(true);
      expect(result?.data.phase).toBe("01-habit-core");
    } finally {
      await client.close();
    }
  });
});

describe("mochi-server (npx -y @local-mcp/mochi-server)", () => {
  it("indexes a copy of examples/mochi with the mochi bin, then suggests a pattern from that catalog", async () => {
    const repo = exampleCopy("mochi");
    const env = userEnv();
    const indexed = spawnSync(linkedBin("mochi"), ["index", repo, "--quiet"], { cwd: repo, env, encoding: "utf8" });
    expect(indexed.status, indexed.stderr).toBe(0);
    const { client } = await connect("mochi-server", repo, env);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("suggest_pattern");
      const suggested = await callTool(client, "suggest_pattern", {
        goal: "add a new carrier that the tracker can find by name",
        limit: 3,
        response_level: "full",
      });
      const patterns = suggested.patterns as { name: string; occurrences: number }[];
      expect(patterns.length).toBeGreaterThan(0);
      expect(patterns[0]?.occurrences).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});

describe("solo-assets-server (npx -y @local-mcp/solo-assets-server)", () => {
  it("lists its tools and saves an example function through the quality gate into a fresh library", async () => {
    const examples = join(REPO, "examples/solo-assets");
    const manifest = JSON.parse(readFileSync(join(examples, "functions.json"), "utf8")) as {
      name: string;
      file: string;
      tests: string;
      description: string;
      tags?: string[];
    }[];
    const entry = manifest.find((item) => item.name === "slugify") ?? manifest[0];
    if (!entry) throw new Error("examples/solo-assets/functions.json lists no function");
    const library = mkdtempSync(join(scratch, "solo-"));
    mkdirSync(join(library, "envs"));
    const env = { ...userEnv(), SOLO_DB_PATH: join(library, "library.duckdb"), SOLO_ENVS_DIR: join(library, "envs"), SOLO_CRITIC: "off" };
    const { client } = await connect("solo-assets-server", library, env);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("save_function");
      const saved = await callTool(
        client,
        "save_function",
        {
          name: entry.name,
          code: readFileSync(join(examples, entry.file), "utf8"),
          description: entry.description,
          tags: entry.tags ?? [],
          test_cases: JSON.parse(readFileSync(join(examples, entry.tests), "utf8")) as unknown,
          response_level: "full",
        },
        240_000,
      );
      expect(saved.name).toBe(entry.name);
      expect(saved.status).not.toBe("broken");
      const steps = (saved.gate_report as { steps: { step: string }[] }).steps.map((step) => step.step);
      expect(steps.length).toBeGreaterThanOrEqual(3);
    } finally {
      await client.close();
    }
  }, 300_000);
});

describe.each(SERVERS)("$name's other bins", ({ app, cli, name }) => {
  it.each([cli, `${cli}-mcp`])("%s --help prints its usage and exits 0", (bin) => {
    expect(Object.keys(installedPackage(name).bins)).toEqual(expect.arrayContaining([app, bin]));
    const help = spawnSync(linkedBin(bin), ["--help"], { cwd: scratch, env: userEnv(), encoding: "utf8" });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain(bin);
    expect(help.stdout.toLowerCase()).toContain("usage");
  });

  it(`${cli}-mcp reports the installed package's version and description (app-info.ts reads package.json)`, () => {
    const installed = installedPackage(name);
    const { description } = JSON.parse(readFileSync(join(installed.dir, "package.json"), "utf8")) as { description: string };
    const run = (arg: string) => spawnSync(linkedBin(`${cli}-mcp`), [arg], { cwd: scratch, env: userEnv(), encoding: "utf8" }).stdout;
    expect(run("--version").trim()).toBe(installed.version);
    expect(run("--help").split("\n")[0]).toBe(`${cli}-mcp ${installed.version} — ${description}`);
  });
});

describe.each(SERVERS)("npm publish --dry-run of $name", ({ name }) => {
  it("prints no warning about bins", () => {
    const { tarball } = installedPackage(name);
    if (!tarball) throw new Error("an install reused through PACK_INSTALL_DIR has no tarballs: run without it");
    const cwd = mkdtempSync(join(scratch, "publish-"));
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || key === "npm_config_registry" || key === "npm_config_cache"),
    );
    const published = spawnSync("npm", ["publish", "--dry-run", tarball], { cwd, env, encoding: "utf8" });
    const output = `${published.stdout}\n${published.stderr}`;
    expect(published.status, output).toBe(0);
    expect(output).toContain(name);
    expect(output.split("\n").filter((line) => /warn/i.test(line) && /bin/i.test(line))).toEqual([]);
  });
});
