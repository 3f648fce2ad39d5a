/**
 * The `mochi` and `mochi-mcp` command lines as a user meets them (issue #14): bad usage exits 2
 * with one line, a missing repository is one coded line (no raw ENOENT), an empty directory is
 * said to have no source files (no conventions from 0 files), `--help` documents the exit
 * status and the environment, and `--help` loads no heavy module (asserted by what it loads, not
 * by a stopwatch: a shared machine's load swings a time ratio, what a process loads is exact).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runObserved } from "@local-mcp/core/testing";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "mochi-cli-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: tempDir() }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("mochi: usage and errors", () => {
  it("bad usage exits 2: an unknown command or option, a missing argument, a bad option value", async () => {
    for (const args of [
      ["bogus"],
      ["--bogus"],
      ["index"],
      ["index", ".", "--bogus"],
      ["dataset", ".", "--seed", "x"],
      ["adapter", "convert", "dir"],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout, args.join(" ")).toBe("");
    }
  });

  it("mochi index on a path that does not exist: one coded line, exit 2, no raw ENOENT and no catalog", async () => {
    const missing = join(tempDir(), "nope");
    const result = await run(["index", missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mochi: NOT_FOUND: [^\n]*nope[^\n]*\n$/);
    expect(result.stderr).not.toContain("ENOENT");
    expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it("mochi index on a file: one coded line, exit 2", async () => {
    const file = join(tempDir(), "a.ts");
    writeFileSync(file, "export const a = 1;\n");
    const result = await run(["index", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mochi: INVALID_INPUT: [^\n]*a\.ts[^\n]*not a directory[^\n]*\n$/);
  });

  it("mochi index on a directory with no source files reports no conventions and says it has no source files", async () => {
    const empty = tempDir();
    mkdirSync(join(empty, "docs"));
    writeFileSync(join(empty, "docs", "notes.md"), "# notes\n");
    const out = join(tempDir(), "catalog.json");
    const result = await run(["index", empty, "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("no source files");
    expect(result.stdout).toContain("0 conventions, 0 patterns, 0 examples");
    const catalog = JSON.parse(readFileSync(out, "utf8")) as { conventions: unknown[]; patterns: unknown[]; examples: unknown[] };
    expect(catalog.conventions).toEqual([]);
    expect(catalog.patterns).toEqual([]);
  });
});

describe("mochi --help", () => {
  it("documents the exit status and the environment (the server's variables; the CLI itself reads none)", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit status:\n\s+0 .+\n\s+1 .+\n\s+2 .+bad usage/);
    expect(help.stdout).toContain("Environment");
    for (const name of ["MOCHI_MODEL", "MOCHI_ADAPTER", "MOCHI_CATALOG", "MOCHI_DEADLINE_MS"]) expect(help.stdout).toContain(name);
  });
});

/** What `--help` may load: commander, the CLI file and data modules; from core only its light main. */
const HELP_SOURCES = new Set(["src/cli.ts", "src/mcp.ts", "src/app-info.ts", "package.json", "src/cli/cli-usage-error.ts"]);
const lightCore = (source: string) => /^core:(src|dist)\/(main|server\/run-main|server\/stdout-guard)\.[jt]s$/.test(source);

describe("--help loads no heavy module", () => {
  it.each([[["--help"]], [["--version"]], [["index", "--help"]], [["dataset", "--help"]], [["adapter", "convert", "--help"]]])(
    "mochi %j",
    async (args) => {
      const loaded = await runObserved(CLI, args);
      expect(loaded.code).toBe(0);
      expect([...loaded.packages]).toEqual(["commander"]);
      expect([...loaded.sources].filter((s) => !HELP_SOURCES.has(s) && !lightCore(s))).toEqual([]);
    },
  );

  it.each([[["--help"]], [["--version"]]])("mochi-mcp %j loads no npm package", async (args) => {
    const loaded = await runObserved(MCP, args);
    expect(loaded.code).toBe(0);
    expect([...loaded.packages]).toEqual([]);
    expect([...loaded.sources].filter((s) => !HELP_SOURCES.has(s) && !lightCore(s))).toEqual([]);
  });
});
