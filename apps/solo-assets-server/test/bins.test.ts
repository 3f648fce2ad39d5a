/** Both bins as a user runs them: help, version, and the CLI on a real library file. */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempLibrary, testEnv } from "./helpers/test-library.js";

const library = tempLibrary();
afterAll(() => library.remove());

const run = (bin: "cli" | "mcp", args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const path = fileURLToPath(new URL(`../dist/${bin}.js`, import.meta.url));
    execFile(process.execPath, [path, ...args], { env: testEnv(library.dbPath), timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });

describe("the solo-assets bins", () => {
  it("solo-assets-mcp --help lists its variables", async () => {
    const help = await run("mcp", ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("solo-assets-mcp");
    expect(help.stdout).toContain("SOLO_DB_PATH");
    expect(help.stdout).toContain("GOOGLE_API_KEY");
  });

  it("solo-assets --help lists the commands", async () => {
    const help = await run("cli", ["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["status", "list", "search", "get", "history", "delete", "save", "reindex", "dashboard"])
      expect(help.stdout).toContain(command);
  });

  it("saves from a file, searches, prints the code and reports a rejection with exit status 1", async () => {
    const file = join(library.dir, "triple.py");
    writeFileSync(file, 'def triple(n: int) -> int:\n    """Three times n."""\n    return n * 3\n');
    const tests = join(library.dir, "tests.json");
    writeFileSync(tests, JSON.stringify([{ input: { n: 2 }, expected: 6 }]));
    const saved = await run("cli", ["save", file, "--name", "triple", "--description", "Multiply by three", "--tests", tests]);
    expect(saved.stdout).toContain("triple v1: active");
    expect(saved.code).toBe(0);
    const search = await run("cli", ["search", "multiply", "a", "number", "by", "3"]);
    expect(search.stdout).toContain("triple [active]");
    const get = await run("cli", ["get", "triple"]);
    expect(get.stdout).toBe('def triple(n: int) -> int:\n    """Three times n."""\n    return n * 3\n');
    writeFileSync(tests, JSON.stringify([{ input: { n: 2 }, expected: 7 }]));
    const rejected = await run("cli", ["save", file, "--name", "triple", "--description", "Multiply by three", "--tests", tests]);
    expect(rejected.code).toBe(1);
    expect(rejected.stdout).toContain("expected 7, got 6");
    const status = await run("cli", ["status", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({ db_path: library.dbPath, counts: { functions: 1, broken: 1, versions: 2 } });
  }, 180_000);

  it("reports a missing function with exit status 1 and a suggestion", async () => {
    const missing = await run("cli", ["get", "nothing_here"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No function named 'nothing_here'/);
  });
});
