/** Help, bad usage (exit 2) and failures (exit 1, one line on stderr) through the built bin. */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { copyExample, useTempDirs } from "../domain/helpers.js";
import { assertBuilt, catdoc } from "./run-catdoc.js";

beforeAll(assertBuilt);
const tempDir = useTempDirs();

const COMMANDS = ["init", "import", "validate", "list", "show", "search", "trace", "coverage", "export", "graph", "dashboard", "mcp"];

describe("catdoc --help", () => {
  it("lists every command, the global --project option and the exit statuses", async () => {
    const result = await catdoc(["--help"], { cwd: await tempDir() });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    expect(result.stdout).toContain("-p, --project <path>");
    expect(result.stdout).toContain("CATDOC_PROJECT_PATH");
    expect(result.stdout).toContain("Exit status: 0 done; 1 the command failed");
  });

  it("each command's help shows its own options", async () => {
    const cwd = await tempDir();
    const expected: Record<string, string[]> = {
      init: ["--force", "--name <name>"],
      import: ["<paths...>", "--category <id>", "--domain <domain>", "--dry-run", "--force"],
      validate: [
        'choices: "table", "json"',
        "--category <id>",
        "--functor <id>",
        "--nt <id>",
        "--strict",
        "Exit status: 0 valid; 1 invalid",
      ],
      list: ['choices: "objects", "morphisms", "categories", "functors", "nts"', "--domain <domain>", "--category <id>", "--limit <n>"],
      show: ['choices: "object", "morphism", "category", "functor", "nt"', "<id>", "--content"],
      search: ["<query...>", "--domain <domain>", "--limit <n>", "default: 20"],
      trace: ["<source>", "[target]", "--all", "--max-depth <n>", "--to-category <id>", "--reverse", "--include-invalid"],
      coverage: ['choices: "table", "json"', "--functor <id>", "--fail-under <pct>", "Exit status: 0 done; 1 with --fail-under"],
      graph: ['choices: "mermaid", "dot", "json"', 'default: "mermaid"', "--category <id>"],
      dashboard: ["--port <port>", "3917", "127.0.0.1"],
      mcp: ["--dashboard", "stderr", "stdio"],
    };
    for (const [command, fragments] of Object.entries(expected)) {
      const result = await catdoc([command, "--help"], { cwd });
      expect(result.code, command).toBe(0);
      // commander wraps help at the terminal's width: compare with whitespace folded.
      const text = result.stdout.replace(/\s+/g, " ");
      for (const fragment of fragments) expect(text, `${command} --help`).toContain(fragment);
    }
  });

  it("prints the version", async () => {
    expect(await catdoc(["--version"], { cwd: await tempDir() })).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
  });
});

describe("bad usage exits 2 with one coded line on stderr and nothing on stdout", () => {
  const cases: Array<[string, string[], RegExp]> = [
    ["no command", [], /catdoc: USAGE: no command given \((?=[^)]*\bexport\b)(?=[^)]*\breview\b)(?=[^)]*\bdiff\b)init, [^)]*\bmcp\)/],
    ["only the global --project", ["--project", "."], /catdoc: USAGE: no command given/],
    ["a misspelt command", ["valdate"], /catdoc: USAGE: unknown command 'valdate' \(Did you mean validate\?\)/],
    ["an unknown global option", ["--bogus"], /catdoc: USAGE: unknown option '--bogus'/],
    ["too many arguments", ["validate", "extra"], /catdoc: USAGE: too many arguments/],
    ["--port without --dashboard", ["mcp", "--port", "4000"], /catdoc: USAGE: --port is the dashboard's port/],
    ["a port that is not one", ["dashboard", "--port", "http"], /catdoc: USAGE: .*Expected a port number/],
    ["an unknown command", ["frobnicate"], /catdoc: USAGE: unknown command 'frobnicate'/],
    ["an unknown option", ["validate", "--bogus"], /catdoc: USAGE: unknown option '--bogus'/],
    ["a format that does not exist", ["validate", "--format", "xml"], /argument 'xml' is invalid\. Allowed choices are table, json/],
    ["a kind that does not exist", ["list", "widgets"], /'widgets' is invalid for argument 'kind'/],
    ["two scopes for validate", ["validate", "--category", "a", "--nt", "b"], /cannot be used with option/],
    ["a limit that is not a positive integer", ["list", "objects", "--limit", "0"], /Expected a positive integer/],
    ["a missing argument", ["show", "object"], /missing required argument 'id'/],
    ["trace without a target", ["trace", "sets"], /catdoc: USAGE: trace needs a target object, or --to-category <id>/],
    ["--domain where it does not apply", ["list", "morphisms", "--domain", "x"], /--domain applies to `list objects` only/],
  ];
  it.each(cases)("%s", async (_name, args, message) => {
    const root = await copyExample(await tempDir(), "math-docs");
    const result = await catdoc(args, { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    // One line: `catdoc: USAGE: <problem> — see \`catdoc --help\` …`, nothing else.
    expect(result.stderr).toMatch(/^catdoc: USAGE: [^\n]+ — see `catdoc --help` or `catdoc <command> --help`\n$/);
  });
});

describe("failures exit 1 with one clear line", () => {
  it("an uninitialized project says so and how to fix it", async () => {
    const root = await tempDir();
    for (const args of [["validate"], ["list", "objects"], ["trace", "a", "b"], ["graph"], ["dashboard", "--port", "0"]]) {
      const result = await catdoc(args, { cwd: root });
      expect(result, args.join(" ")).toEqual({
        code: 1,
        stdout: "",
        stderr: `catdoc: CatDoc project not initialized at '${root}'. Run \`catdoc init\` first.\n`,
      });
    }
  });

  it("the project comes from --project, else CATDOC_PROJECT_PATH, else the working directory", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const elsewhere = await tempDir();
    await mkdir(join(elsewhere, "sub"));
    const fromEnv = await catdoc(["list", "categories", "--format", "json"], { cwd: elsewhere, env: { CATDOC_PROJECT_PATH: root } });
    expect(fromEnv.code).toBe(0);
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ categories: [{ id: "algebra" }, { id: "topology" }] });
    const fromOption = await catdoc(["list", "categories", "--project", root], {
      cwd: elsewhere,
      env: { CATDOC_PROJECT_PATH: join(elsewhere, "sub") },
    });
    expect(fromOption.code).toBe(0);
    expect(fromOption.stdout).toContain("algebra");
    const fromCwd = await catdoc(["list", "categories"], { cwd: elsewhere });
    expect(fromCwd.stderr).toContain(`not initialized at '${elsewhere}'`);
  });

  it("an id from another category is named in the message", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const result = await catdoc(["trace", "sets", "manifolds", "--category", "algebra"], { cwd: root });
    expect(result).toEqual({ code: 1, stdout: "", stderr: "catdoc: Object 'manifolds' not found in category 'algebra'\n" });
  });
});
