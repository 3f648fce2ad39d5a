/**
 * The `local-model` and `local-model-mcp` command lines as a user meets them (issue #14): bad
 * usage exits 2 everywhere (it was 1), `--help` documents the exit status and the environment,
 * and `--help` loads no heavy module — asserted by what it loads, not by a stopwatch (a shared
 * machine's load swings a time ratio; what a process loads is exact).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runObserved } from "@local-mcp/core/testing";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "local-model-cli-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function run(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = tempDir();
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, XDG_STATE_HOME: cwd, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("local-model: usage", () => {
  it.each([[["bogus"]], [["--bogus"]], [["stats", "--bogus"]], [["templates", "extra"]], [["config", "check", "--bogus"]], [["--config"]]])(
    "bad usage %j exits 2 with nothing on stdout",
    async (args) => {
      const result = await run(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/error: /);
    },
  );

  it("a configuration that does not parse is one line and exit 2", async () => {
    const result = await run(["stats"], { LOCAL_MODEL_TIMEOUT_MS: "soon" });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^local-model: [^\n]*LOCAL_MODEL_TIMEOUT_MS[^\n]*\n$/);
  });

  it("-c FILE names the config file, trusted, and wins over LOCAL_MODEL_CONFIG", async () => {
    const dir = tempDir();
    const named = join(dir, "named.json");
    const fromEnv = join(dir, "env.json");
    writeFileSync(named, JSON.stringify({ timeout_ms: 1234 }));
    writeFileSync(fromEnv, JSON.stringify({ timeout_ms: 5678 }));
    const result = await run(["-c", named, "config", "check", "--no-load", "--json"], { LOCAL_MODEL_CONFIG: fromEnv });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ config: { configFile: named, configSource: "trusted", timeoutMs: 1234 } });
  });

  it("--help documents the exit status and the environment", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit status:\n\s+0 .+\n\s+1 .+\n\s+2 .+bad usage/);
    for (const name of ["LOCAL_MODEL_CONFIG", "LOCAL_MODEL_MODEL_PATH", "LOCAL_MODEL_ROOTS", "LOCAL_MODEL_STATE_DIR"])
      expect(help.stdout).toContain(name);
  });
});

/** What `--help` may load: commander, the CLI file and data modules; from core only its light main. */
const HELP_SOURCES = new Set(["src/cli.ts", "src/mcp.ts", "src/app-info.ts", "package.json"]);
const lightCore = (source: string) => /^core:(src|dist)\/(main|server\/run-main|server\/stdout-guard)\.[jt]s$/.test(source);

describe("--help loads no heavy module", () => {
  it.each([[["--help"]], [["--version"]], [["config", "check", "--help"]], [["templates", "--help"]], [["stats", "--help"]]])(
    "local-model %j",
    async (args) => {
      const loaded = await runObserved(CLI, args);
      expect(loaded.code).toBe(0);
      expect([...loaded.packages]).toEqual(["commander"]);
      expect([...loaded.sources].filter((s) => !HELP_SOURCES.has(s) && !lightCore(s))).toEqual([]);
    },
  );

  it.each([[["--help"]], [["--version"]]])("local-model-mcp %j loads no npm package", async (args) => {
    const loaded = await runObserved(MCP, args);
    expect(loaded.code).toBe(0);
    expect([...loaded.packages]).toEqual([]);
    expect([...loaded.sources].filter((s) => !HELP_SOURCES.has(s) && !lightCore(s))).toEqual([]);
  });
});
