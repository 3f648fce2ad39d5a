/**
 * Issue #13, item 1: command execution through git. local_git runs git in a repository under
 * the roots, and git runs programs its repository config names: `core.fsmonitor` on every
 * status, `diff.external` and diff drivers, clean/smudge/process filters (with a
 * .gitattributes), hooks. local_generate could write `evil/.git/config` with
 * `core.fsmonitor=<cmd>`, and the next `local_git status repo=evil` ran the command as the
 * server's user. Here the real local-model-mcp bin is asked (1) to write into git internals
 * (.git/HEAD, .git/config, .git/hooks, a case variant, a `.git` file's gitdir, a bare repository),
 * its own config file and its state dir — each FORBIDDEN with nothing written — and (2) to run
 * every local_git task in repositories whose config plants each of those programs; each program
 * writes a marker file, and no marker may appear.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_ENV, SERVERS, SERVER_NODE } from "./support/servers.js";

const server = SERVERS.find((s) => s.name === "local-model-mcp");
if (!server) throw new Error("local-model-mcp is not in the server table");

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Ada",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada",
  GIT_COMMITTER_EMAIL: "ada@example.com",
};
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });

interface Result {
  isError?: boolean;
  structuredContent?: { error?: { code?: string } };
}

describe("local-model-mcp: git never runs a program the repository names, and tools cannot write git internals", () => {
  let dir: string;
  let root: string;
  let markers: string;
  let spawned: SpawnedStdioServer;

  /** A script outside the root that records that `name` ran (a filter passes stdin through; others exit at once). */
  async function program(name: string, passThrough = false): Promise<string> {
    const path = join(dir, "programs", `${name}.sh`);
    await writeFile(path, `#!/bin/sh\ntouch '${join(markers, name)}'\n${passThrough ? "cat" : "exit 0"}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  const ran = () => readdirSync(markers).sort();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "security-git-"));
    root = join(dir, "root");
    markers = join(dir, "markers");
    await Promise.all([mkdir(join(root, ".state"), { recursive: true }), mkdir(markers), mkdir(join(dir, "programs"))]);

    // A repository whose config plants every program git could run during status/diff/log.
    const hostile = join(root, "hostile");
    await mkdir(hostile);
    git(hostile, "init", "-q", "-b", "main");
    await writeFile(join(hostile, "a.txt"), "one\n");
    await writeFile(join(hostile, "b.md"), "one\n");
    await writeFile(join(hostile, "c.json"), "{}\n");
    await writeFile(join(hostile, "d.bin"), "one\n");
    git(hostile, "add", ".");
    git(hostile, "commit", "-q", "-m", "first");
    await writeFile(join(hostile, ".gitattributes"), "*.txt filter=evil diff=evil\n*.md filter=proc\n*.json filter=inc\n*.bin diff=drv\n");
    const set = (key: string, value: string) => git(hostile, "config", key, value);
    set("core.fsmonitor", await program("fsmonitor"));
    set("diff.external", await program("diff-external"));
    set("diff.evil.textconv", await program("textconv", true));
    set("diff.drv.command", await program("diff-driver"));
    set("filter.evil.clean", await program("filter-clean", true));
    set("filter.evil.smudge", await program("filter-smudge", true));
    set("filter.proc.process", await program("filter-process"));
    set("core.pager", await program("pager"));
    set("pager.log", await program("pager-log"));
    set("gpg.program", await program("gpg"));
    // A filter defined in an included file, not in .git/config itself.
    await writeFile(join(dir, "included.cfg"), `[filter "inc"]\n\tclean = ${await program("filter-included", true)}\n`);
    set("include.path", join(dir, "included.cfg"));
    for (const hook of ["post-index-change", "fsmonitor-watchman", "pre-commit", "reference-transaction", "post-checkout"]) {
      const path = join(hostile, ".git", "hooks", hook);
      await writeFile(path, `#!/bin/sh\ntouch '${join(markers, `hook-${hook}`)}'\n`);
      chmodSync(path, 0o755);
    }
    // Changes after the commit, so status and diff compare contents (and would clean, textconv, diff).
    for (const file of ["a.txt", "b.md", "c.json", "d.bin"]) await writeFile(join(hostile, file), "two\nlines\n");
    git(hostile, "add", "--", "c.json");
    // Setting up ran some of them in this test's own git: start counting from here.
    for (const marker of readdirSync(markers)) await rm(join(markers, marker));

    // A plain repository for the writes, a work tree whose `.git` is a file (gitdir), and a bare repository.
    const evil = join(root, "evil");
    await mkdir(join(evil, "sub"), { recursive: true });
    git(evil, "init", "-q", "-b", "main");
    await mkdir(join(root, "linked"));
    git(root, "init", "-q", "--separate-git-dir", join(root, "gd"), join(root, "linked"));
    git(root, "init", "-q", "--bare", join(root, "bare.git"));

    spawned = await spawnStdioServer({
      command: SERVER_NODE,
      args: [server.entry],
      env: { ...BASE_ENV, LOCAL_MODEL_ROOTS: root, LOCAL_MODEL_STATE_DIR: join(root, ".state") },
      cwd: root,
      readyPattern: /ready/,
      readyTimeoutMs: 60_000,
    });
  });

  afterAll(async () => {
    await spawned?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown>) => (await spawned.client.callTool({ name, arguments: args })) as Result;

  it("refuses to write into git internals, its own config and its state dir: FORBIDDEN, nothing written", async () => {
    const fsmonitorConfig = `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = ${await program("generated-fsmonitor")}\n`;
    const targets = [
      "evil/.git/HEAD",
      "evil/.git/config",
      "evil/.git/hooks/post-index-change",
      "evil/.git/info/attributes",
      "evil/.git/new-folder/x",
      "evil/sub/.GIT/config",
      "evil/sub/.Git/hooks/x",
      "evil/sub/.git",
      "evil/.hg/hgrc",
      "evil/.svn/x",
      "evil/.jj/repo/config.toml",
      "gd/config",
      "gd/hooks/post-index-change",
      "bare.git/config",
      "bare.git/hooks/x",
      "local-model.config.json",
      "sub/local-model.config.json",
      ".state/stats.json",
      ".state/other.json",
    ];
    const before = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined);
    for (const output_path of targets) {
      const was = before(output_path);
      const result = await call("local_generate", { template: fsmonitorConfig, output_path });
      expect(result.isError ? result.structuredContent?.error?.code : "written", output_path).toBe("FORBIDDEN");
      // The server itself keeps updating its stats file: there, only the template's text must be absent.
      if (output_path.startsWith(".state/")) expect(before(output_path) ?? "", output_path).not.toContain("generated-fsmonitor");
      else expect(before(output_path), `${output_path} was changed`).toBe(was);
    }
    // The whole attack: had the config been written, this status would have run the command.
    for (const repo of ["evil", "linked", "bare.git"]) await call("local_git", { task_type: "status", repo });
    expect(ran()).toEqual([]);
  });

  it("runs status, diff, log and changed_files in a hostile repository without running any program it names", async () => {
    const calls: Record<string, unknown>[] = [
      { task_type: "status" },
      { task_type: "diff" },
      { task_type: "diff", options: { staged: true } },
      { task_type: "diff", options: { ref: "HEAD" } },
      { task_type: "log", options: { limit: 5 } },
      { task_type: "log", options: { paths: ["hostile/a.txt"] } },
      { task_type: "changed_files" },
      { task_type: "changed_files", options: { ref: "HEAD" } },
    ];
    const answers: string[] = [];
    for (const args of calls) {
      const result = await call("local_git", { ...args, repo: "hostile", response_level: "full" });
      answers.push(JSON.stringify(result).slice(0, 300));
    }
    expect(ran(), `programs the repository named ran; answers: ${answers.join("\n")}`).toEqual([]);
    // And git still did its job: the changes are listed.
    const status = JSON.stringify(await call("local_git", { task_type: "status", repo: "hostile" }));
    expect(status).toContain("a.txt");
    expect(ran()).toEqual([]);
    spawned.assertCleanStdout();
  });
});
