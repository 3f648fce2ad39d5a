/**
 * The original CatDoc's command line (issue 17 item 7), run in-process through runCli: its short
 * flags do what ours do, `list` without a kind lists objects, `dashboard -p <port> -o` serves
 * (and opens) the dashboard, and the flags that mean something else here are bad usage (exit 2,
 * one coded line) naming what to use.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { browserCommand } from "../../src/cli/open-browser.js";
import { adaptOriginalArguments } from "../../src/cli/original-flags.js";
import { copyExample, useTempDirs } from "../domain/helpers.js";
import { runInProcess, type InProcessRun } from "./run-in-process.js";

const tempDir = useTempDirs();

const run = runInProcess;

/** What a long-running command waits for (SIGINT/SIGTERM in the bin), sent by the test. */
function stopSignal(): { stop: (signal: string) => void; stopped: Promise<string> } {
  let stop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  return { stop, stopped };
}

/** Both command lines print the same, with exit 0. */
async function expectSame(original: string[], ours: string[], cwd: string): Promise<InProcessRun> {
  const theirs = await run(original, cwd);
  const mine = await run(ours, cwd);
  expect(theirs, original.join(" ")).toEqual(mine);
  expect(mine.code, `${ours.join(" ")}: ${mine.stderr}`).toBe(0);
  return mine;
}

/** Bad usage: exit 2, nothing on stdout, one coded line on stderr matching `message`. */
function expectUsage(result: InProcessRun, message: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^catdoc: USAGE: [^\n]+ — see `catdoc --help` or `catdoc <command> --help`\n$/);
  expect(result.stderr).toMatch(message);
}

describe("the original's flags that mean what ours mean", () => {
  it("list without a kind lists objects; list -d -l -f are --domain, --limit, --format", async () => {
    const root = await copyExample(await tempDir(), "dev-project");
    const objects = await expectSame(["list"], ["list", "objects"], root);
    expect(objects.stdout).toContain("req-user-management");
    const json = await expectSame(
      ["list", "-d", "requirements", "-l", "1", "-f", "json"],
      ["list", "objects", "--domain", "requirements", "--limit", "1", "--format", "json"],
      root,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 2, objects: [{ domain: "requirements" }] });
    expect(JSON.parse(json.stdout).objects).toHaveLength(1);
  });

  it("search -d -l are --domain and --limit; trace -a is --all", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const found = await expectSame(
      ["search", "group", "-d", "mathematics", "-l", "1"],
      ["search", "group", "--domain", "mathematics", "--limit", "1"],
      root,
    );
    expect(found.stdout).toContain("groups");
    const all = await expectSame(["trace", "sets", "fields", "-a"], ["trace", "sets", "fields", "--all"], root);
    expect(all.stdout).toContain("sets");
  });

  it("init -f -n are --force and --name", async () => {
    const root = await tempDir();
    expect((await run(["init", "-n", "Math notes"], root)).code).toBe(0);
    expect(await readFile(join(root, ".catdoc", "config.yaml"), "utf8")).toContain("name: Math notes");
    const again = await run(["init", "-n", "Other"], root);
    expect(again.code).toBe(1);
    const forced = await run(["init", "-f", "-n", "Renamed"], root);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain("Reinitialized");
    expect(await readFile(join(root, ".catdoc", "config.yaml"), "utf8")).toContain("name: Renamed");
  });

  it("import -d is --domain", async () => {
    const root = await tempDir();
    await copyExample(root, "math-docs");
    const result = await run(
      ["import", "docs/sets.md", "--category", "algebra", "-d", "set-theory", "--dry-run", "--format", "json"],
      root,
    );
    const ours = await run(
      ["import", "docs/sets.md", "--category", "algebra", "--domain", "set-theory", "--dry-run", "--format", "json"],
      root,
    );
    expect(result).toEqual(ours);
    expect(result.code, result.stderr).toBe(0);
  });

  it("-c <root>/.catdoc/config.yaml names the project, as --project <root> does", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const elsewhere = await tempDir();
    const viaConfig = await run(["-c", join(root, ".catdoc", "config.yaml"), "list", "categories"], elsewhere);
    expect(viaConfig).toEqual(await run(["--project", root, "list", "categories"], elsewhere));
    expect(viaConfig.stdout).toContain("algebra");
    expect((await run(["list", "categories", "--config=.catdoc/config.yaml"], root)).stdout).toContain("algebra");
  });
});

describe("catdoc dashboard -p <port> -o, as in the original", () => {
  it("-p after dashboard is its port (-p before a command stays --project); -o opens the URL it serves", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const elsewhere = await tempDir();
    const { stop, stopped } = stopSignal();
    let opened: { url: string; health: unknown } | undefined;
    const result = await run(["-p", root, "dashboard", "-p", "0", "-o"], elsewhere, {
      waitForStop: () => stopped,
      openUrl: async (url) => {
        const response = await fetch(new URL("api/health", url));
        opened = { url, health: await response.json() };
        stop("SIGINT");
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(opened?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(result.stderr).toContain(`CatDoc dashboard listening on ${opened?.url} (project ${root})`);
    expect(opened?.health).toMatchObject({ status: "ok" });
  });

  it("a browser that cannot be started is reported on stderr; the dashboard still serves", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const { stop, stopped } = stopSignal();
    let served = 0;
    const result = await run(["dashboard", "-p0", "--open"], root, {
      waitForStop: () => stopped,
      openUrl: async (url) => {
        setTimeout(() => {
          void fetch(new URL("api/health", url)).then((response) => {
            served = response.status;
            stop("SIGTERM");
          });
        }, 0);
        throw new Error("xdg-open: spawn xdg-open ENOENT");
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/catdoc: could not open a browser \(xdg-open: spawn xdg-open ENOENT\): open http:\/\/127\.0\.0\.1:\d+\//);
    expect(served).toBe(200);
  });

  it("-p with a project path after dashboard says -p is --port there and names --project", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    expectUsage(await run(["dashboard", "-p", "../proj"], root), /Expected a port number.*-p is --port .*--project <path>/);
  });

  it("the opener's command per platform", () => {
    const url = "http://127.0.0.1:3917/";
    expect(browserCommand(url, "linux")).toEqual({ command: "xdg-open", args: [url] });
    expect(browserCommand(url, "darwin")).toEqual({ command: "open", args: [url] });
    expect(browserCommand(url, "win32")).toEqual({ command: "cmd", args: ["/c", "start", "", url] });
  });
});

describe("the original's flags that mean something else here: exit 2 naming the replacement", () => {
  const cases: Array<[string, string[], RegExp]> = [
    ["-v (verbose)", ["-v", "validate"], /-v is the original CatDoc's --verbose, which has no counterpart.*-V, --version/],
    ["--verbose after the command", ["list", "--verbose"], /--verbose is the original CatDoc's --verbose/],
    [
      "-c with a file that is not a project's config.yaml",
      ["-c", "my-config.yaml", "validate"],
      /choose the project with --project <path>/,
    ],
    ["-c without a path", ["validate", "-c"], /-c, --config needs a path/],
    ["-c and --project together", ["--project", ".", "-c", ".catdoc/config.yaml", "validate"], /--project <path> or -c .*not both/],
    [
      "import -f <path> (the original's force)",
      ["import", "-f", "docs/sets.md"],
      /-f is --format <text\|json>; the original CatDoc's -f .* is --force/,
    ],
    ["import <path> -f", ["import", "docs/sets.md", "-f"], /the original CatDoc's -f \(overwrite existing objects\) is --force/],
    ["trace --category without an id", ["trace", "sets", "algebra", "--category"], /the original CatDoc's --category .* is --to-category/],
    [
      "validate --functors",
      ["validate", "--functors"],
      /checks every category, functor and natural transformation; one of them: --functor <id>/,
    ],
    ["validate --categories", ["validate", "--categories"], /one of them: --category <id>/],
    ["validate --natural-transformations", ["validate", "--natural-transformations"], /one of them: --nt <id>/],
    [
      "search --functor <name>",
      ["search", "group", "--functor", "f"],
      /search --functor is the original CatDoc's .*`catdoc show functor <id>`/,
    ],
    ["search --natural=<name>", ["search", "--natural=eta", "group"], /search --natural is the original CatDoc's .*`catdoc show nt <id>`/],
  ];
  it.each(cases)("%s", async (_name, args, message) => {
    const root = await copyExample(await tempDir(), "math-docs");
    expectUsage(await run(args, root), message);
  });

  it("our own usage of the same letters still works: import -f json, trace --category <id>, -p before the command", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const imported = await run(["import", "docs/sets.md", "--category", "algebra", "--dry-run", "-f", "json"], root);
    expect(imported.code, imported.stderr).toBe(0);
    expect(() => JSON.parse(imported.stdout) as unknown).not.toThrow();
    const traced = await run(["trace", "sets", "fields", "--category", "algebra"], root);
    expect(traced.code, traced.stderr).toBe(0);
    const elsewhere = await tempDir();
    expect((await run(["-p", root, "list"], elsewhere)).stdout).toContain("groups");
    expect((await run(["list", "-p", root], elsewhere)).stdout).toContain("groups");
  });
});

describe("adaptOriginalArguments", () => {
  it("rewrites only what the original meant differently, and nothing after --", () => {
    const cwd = "/work/p";
    expect(adaptOriginalArguments(["dashboard", "-p", "3000", "-o"], cwd)).toEqual(["dashboard", "--port", "3000", "-o"]);
    expect(adaptOriginalArguments(["-p", "/x", "dashboard", "-p3000"], cwd)).toEqual(["-p", "/x", "dashboard", "--port", "3000"]);
    expect(adaptOriginalArguments(["validate", "-p", "/x"], cwd)).toEqual(["validate", "-p", "/x"]);
    expect(adaptOriginalArguments(["-c", "sub/.catdoc/config.yaml", "list"], cwd)).toEqual(["--project", "/work/p/sub", "list"]);
    expect(adaptOriginalArguments(["search", "--", "-v"], cwd)).toEqual(["search", "--", "-v"]);
  });
});

describe("--help tells the truth", () => {
  it("shows the original's flags where they work", async () => {
    const cwd = await tempDir();
    const help = async (args: string[]) => (await run(args, cwd)).stdout.replace(/\s+/g, " ");
    expect(await help(["--help"])).toContain("Coming from the original CatDoc: list without a kind lists objects");
    expect(await help(["--help"])).toContain("after `dashboard`, -p is its --port");
    expect(await help(["dashboard", "--help"])).toContain("-p, --port <port>");
    expect(await help(["dashboard", "--help"])).toContain("-o, --open");
    expect(await help(["list", "--help"])).toContain("Usage: catdoc list [options] [kind]");
    expect(await help(["list", "--help"])).toContain('kind what to list (choices: "objects"');
    expect(await help(["list", "--help"])).toContain('default: "objects"');
    expect(await help(["list", "--help"])).toContain("-d, --domain <domain>");
    expect(await help(["list", "--help"])).toContain("-l, --limit <n>");
    expect(await help(["init", "--help"])).toContain("-f, --force");
    expect(await help(["init", "--help"])).toContain("-n, --name <name>");
    expect(await help(["import", "--help"])).toContain("-d, --domain <domain>");
    expect(await help(["import", "--help"])).toContain("the original CatDoc's -f, overwrite existing objects, is --force");
    expect(await help(["search", "--help"])).toContain("-l, --limit <n>");
    expect(await help(["trace", "--help"])).toContain("-a, --all");
  });
});
