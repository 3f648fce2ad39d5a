/**
 * The built `solo-assets` CLI as a user runs it (issue #14 friction): a failure is one coded line
 * on stderr that suggests CLI commands (never MCP tool names); bad usage exits 2; `save` shows
 * each gate step once.
 */
import { execFile, execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { seedTypeCache } from "./helpers/gate-tools.js";
import { tempLibrary, testEnv } from "./helpers/test-library.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const library = tempLibrary();
afterAll(() => library.remove());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const run = (args: readonly string[], env: Record<string, string> = testEnv(library.dbPath)) =>
  new Promise<Run>((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });

const TOOL_NAMES = /search_functions|list_functions|get_function|save_function|delete_function|get_function_history/;
const ONE_CODED_LINE = /^solo-assets: [A-Z_]+: [^\n]+\n$/;

const file = (name: string, text: string) => {
  const path = join(library.dir, name);
  writeFileSync(path, text);
  return path;
};
const ADD = 'def add(a: int, b: int) -> int:\n    """Add two numbers."""\n    return a + b\n';

describe("solo-assets failures", () => {
  it("a missing function suggests CLI commands, not MCP tool names, in one coded line (exit 1)", async () => {
    for (const args of [
      ["get", "nope"],
      ["history", "nope"],
      ["delete", "nope"],
      ["get", "nope", "--version", "3"],
    ]) {
      const missing = await run(args);
      expect(missing.code, args.join(" ")).toBe(1);
      expect(missing.stderr, args.join(" ")).toMatch(ONE_CODED_LINE);
      expect(missing.stderr).toMatch(/^solo-assets: NOT_FOUND: (No function named 'nope'|Function 'nope' has no version 3)\./);
      expect(missing.stderr).not.toMatch(TOOL_NAMES);
      expect(missing.stderr).toMatch(/`solo-assets (search|list|history)/);
    }
  }, 180_000);

  it("bad usage exits 2 with one coded line, whatever was wrong", async () => {
    const py = file("add.py", ADD);
    const badJson = file("bad.json", "[{not json");
    const cases: string[][] = [
      [],
      ["frob"],
      ["list", "--bogus"],
      ["list", "--limit", "x"],
      ["list", "--status", "zzz"],
      ["search"],
      ["get"],
      ["get", "not a name"],
      ["save", py],
      ["save", join(library.dir, "missing.py"), "--name", "add", "--description", "Add"],
      ["save", py, "--name", "add", "--description", "Add", "--tests", badJson],
      ["save", py, "--name", "subtract", "--description", "Subtract"],
      ["dashboard", "--port", "-1"],
    ];
    for (const args of cases) {
      const bad = await run(args);
      expect({ args, code: bad.code }).toEqual({ args, code: 2 });
      expect(bad.stderr, args.join(" ")).toMatch(ONE_CODED_LINE);
      expect(bad.stderr, args.join(" ")).toMatch(/^solo-assets: INVALID_INPUT: /);
      expect(bad.stdout, args.join(" ")).toBe("");
    }
  }, 180_000);
});

/** The steps a save printed: lines that name a gate step (a progress line or a report line). */
function stepMentions(text: string): Record<string, number> {
  const counts: Record<string, number> = { lint: 0, type: 0, test: 0, critic: 0 };
  for (const line of text.split("\n")) {
    const step = /^\W*(lint|type|tests?|critic)\b/.exec(line)?.[1]?.replace(/^tests$/, "test");
    if (step) counts[step] = (counts[step] ?? 0) + 1;
  }
  return counts;
}

const ESCAPE_SEQUENCE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g");

/** What a terminal shows: each line's text after its last carriage return, escape sequences removed. */
function screen(raw: string): string {
  return raw
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => (line.split("\r").at(-1) ?? "").replace(ESCAPE_SEQUENCE, ""))
    .join("\n");
}

const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("solo-assets save", () => {
  it("prints each gate step once (output to a pipe), in a fresh environment pool", async () => {
    const py = file("add.py", ADD);
    const tests = file("add-tests.json", JSON.stringify([{ input: { a: 1, b: 2 }, expected: 3 }]));
    const env = testEnv(library.dbPath, { SOLO_ENVS_DIR: seedTypeCache(join(library.dir, "envs")), LOCAL_MCP_LOG_LEVEL: undefined });
    const saved = await run(["save", py, "--name", "add", "--description", "Add two numbers", "--tests", tests], env);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain("add v1: active");
    expect(stepMentions(`${saved.stdout}${saved.stderr}`)).toEqual({ lint: 1, type: 1, test: 1, critic: 1 });
    expect(saved.stderr).not.toContain("creating a Python environment");
  }, 180_000);

  it.skipIf(!hasScript)(
    "on a terminal, progress is one line that is replaced and cleared: each step shows once",
    () => {
      const py = file("twice.py", 'def twice(n: int) -> int:\n    """Two times n."""\n    return 2 * n\n');
      const tests = file("twice-tests.json", JSON.stringify([{ input: { n: 2 }, expected: 4 }]));
      const env = testEnv(library.dbPath);
      const command = [process.execPath, CLI, "save", py, "--name", "twice", "--description", "Double", "--tests", tests]
        .map((a) => `'${a}'`)
        .join(" ");
      const raw = execFileSync("script", ["-qefc", command, "/dev/null"], { env, encoding: "utf8", timeout: 120_000 });
      const shown = screen(raw);
      expect(shown).toContain("twice v1: active");
      expect(stepMentions(shown)).toEqual({ lint: 1, type: 1, test: 1, critic: 1 });
    },
    180_000,
  );
});
