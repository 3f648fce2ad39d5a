import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLevelsNested } from "@local-mcp/core/testing";
import { buildRepo } from "./git-repo-fixture.js";
import { configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

let server: Connected;
let repo: Awaited<ReturnType<typeof tempDir>>;
let state: Awaited<ReturnType<typeof tempDir>>;
let hashes: { head: string; first: string };

beforeAll(async () => {
  repo = await tempDir("local-model-git-");
  state = await tempDir();
  hashes = buildRepo(repo.path);
  server = await connect(configFor({ LOCAL_MODEL_ROOTS: repo.path, LOCAL_MODEL_STATE_DIR: state.path }));
});
afterAll(async () => {
  await server.close();
  await repo.remove();
  await state.remove();
});

describe("local_git status (porcelain v2)", () => {
  it("lists staged, modified, untracked, renamed and deleted files exactly", async () => {
    const { isError, body } = await server.call("local_git", { task_type: "status" });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ success: true, engine: "deterministic", confidence: 1, tokens_used: 0 });
    // Without response_level the tool answers at standard: the lists.
    expect(dataOf(body)).toMatchObject({
      branch: "main",
      counts: { staged: 4, modified: 4, untracked: 2, renamed: 1, deleted: 2 },
      staged: ["a.txt", "c2.txt", "d.txt", "f.txt"],
      modified: ["b.txt", "f.txt", "img.bin", "space name.txt"],
      untracked: ["new.txt", "src/new/thing.ts"],
      renamed: [{ from: "c.txt", to: "c2.txt" }],
      deleted: ["d.txt", "e.txt"],
      repo: ".",
    });
    // tokens_saved is measured against `git status --short`, not the porcelain v2 the server parses
    const short = execFileSync("git", ["status", "--short", "--untracked-files=all"], { cwd: repo.path, encoding: "utf8" });
    const shortTokens = Math.ceil(short.length / 4);
    const responseTokens = Math.ceil(JSON.stringify(body).length / 4);
    expect(body.tokens_saved).toBeLessThan(shortTokens);
    expect(body.tokens_saved).toBeGreaterThanOrEqual(shortTokens - responseTokens - 8);
  });

  it("summarizes at minimal: the branch and how many paths of each kind", async () => {
    const { body } = await server.call("local_git", { task_type: "status", response_level: "minimal" });
    expect(dataOf(body)).toEqual({ branch: "main", counts: { staged: 4, modified: 4, untracked: 2, renamed: 1, deleted: 2 } });
  });

  it("honours paths, and gives branch details and raw entries at higher levels", async () => {
    const everything = await server.call("local_git", { task_type: "status", options: { paths: ["."] } });
    expect(dataOf(everything.body).untracked).toEqual(["new.txt", "src/new/thing.ts"]);
    const limited = await server.call("local_git", { task_type: "status", options: { paths: ["src", "b.txt"] } });
    expect(dataOf(limited.body)).toMatchObject({
      branch: "main",
      counts: { staged: 0, modified: 1, untracked: 1, renamed: 0, deleted: 0 },
      staged: [],
      modified: ["b.txt"],
      untracked: ["src/new/thing.ts"],
      renamed: [],
      deleted: [],
    });
    const [minimal, standard, full] = await Promise.all(
      (["minimal", "standard", "full"] as const).map(async (level) => {
        const {
          tokens_saved: _saved,
          tokens_over: _over,
          ...rest
        } = (await server.call("local_git", { task_type: "status", options: { paths: ["c2.txt", "e.txt"] }, response_level: level })).body;
        return rest;
      }),
    );
    assertLevelsNested({ minimal, standard, full });
    expect(dataOf(standard ?? {})).toMatchObject({ repo: ".", oid: hashes.head });
    expect(dataOf(full ?? {}).entries).toEqual([
      { path: "c2.txt", index: "R", worktree: ".", kind: "renamed", from: "c.txt" },
      { path: "e.txt", index: ".", worktree: "D", kind: "changed" },
    ]);
  });

  it("format detailed includes every detail at the default level", async () => {
    const { body } = await server.call("local_git", { task_type: "status", options: { paths: ["e.txt"], format: "detailed" } });
    expect(dataOf(body).entries).toEqual([{ path: "e.txt", index: ".", worktree: "D", kind: "changed" }]);
    expect(body.stats).toBeDefined();
  });

  it("format detailed is a request for level full: a response_level given wins, and minimal is the minimal answer", async () => {
    const { body } = await server.call("local_git", {
      task_type: "status",
      options: { paths: ["e.txt"], format: "detailed" },
      response_level: "minimal",
    });
    expect(dataOf(body)).toEqual({ branch: "main", counts: { staged: 0, modified: 0, untracked: 0, renamed: 0, deleted: 1 } });
    expect(body).not.toHaveProperty("stats");
    const standard = await server.call("local_git", {
      task_type: "status",
      options: { paths: ["e.txt"], format: "detailed" },
      response_level: "standard",
    });
    expect(dataOf(standard.body)).not.toHaveProperty("entries");
  });
});

describe("local_git diff (numstat)", () => {
  it("counts unstaged changes per file, binary files marked", async () => {
    const { body } = await server.call("local_git", { task_type: "diff" });
    expect(dataOf(body)).toEqual({
      files_changed: 5,
      insertions: 4,
      deletions: 3,
      changes: [
        { file: "b.txt", added: 2, removed: 0 },
        { file: "e.txt", added: 0, removed: 2 },
        { file: "f.txt", added: 1, removed: 0 },
        { file: "img.bin", added: 0, removed: 0, binary: true },
        { file: "space name.txt", added: 1, removed: 1 },
      ],
      repo: ".",
      compared: "work tree vs index (unstaged)",
    });
    const minimal = await server.call("local_git", { task_type: "diff", response_level: "minimal" });
    expect(dataOf(minimal.body)).toEqual({ files_changed: 5, insertions: 4, deletions: 3 });
  });

  it("counts staged changes with renames (--cached)", async () => {
    const { body } = await server.call("local_git", { task_type: "diff", options: { staged: true }, response_level: "standard" });
    expect(dataOf(body)).toEqual({
      files_changed: 4,
      insertions: 2,
      deletions: 1,
      changes: [
        { file: "a.txt", added: 1, removed: 0 },
        { file: "c2.txt", added: 0, removed: 0, from: "c.txt" },
        { file: "d.txt", added: 0, removed: 1 },
        { file: "f.txt", added: 1, removed: 0 },
      ],
      repo: ".",
      compared: "index vs HEAD (staged)",
    });
  });

  it("compares with a revision, and refuses option-like or unknown revisions", async () => {
    const { body } = await server.call("local_git", { task_type: "diff", options: { ref: "HEAD~1", paths: ["docs"] } });
    expect(dataOf(body)).toEqual({
      files_changed: 1,
      insertions: 1,
      deletions: 0,
      changes: [{ file: "docs/guide.md", added: 1, removed: 0 }],
      repo: ".",
      compared: "work tree vs HEAD~1",
    });
    const optionLike = await server.call("local_git", { task_type: "diff", options: { ref: "--output=/tmp/x" } });
    expect(errorOf(optionLike.body).code).toBe("INVALID_INPUT");
    const unknown = await server.call("local_git", { task_type: "diff", options: { ref: "no-such-branch" } });
    expect(errorOf(unknown.body).code).toBe("INVALID_INPUT");
  });
});

describe("local_git log and changed_files", () => {
  it("lists commits newest first with the limit and paths honoured", async () => {
    const { body } = await server.call("local_git", { task_type: "log", response_level: "full" });
    expect(dataOf(body).commits).toEqual([
      {
        hash: hashes.head.slice(0, 7),
        message: "Add guide",
        date: "2025-01-16T11:30:00+00:00",
        full_hash: hashes.head,
        author: "Ada Tester",
        email: "ada@example.com",
        body: "The guide explains setup.",
      },
      {
        hash: hashes.first.slice(0, 7),
        message: "Initial commit",
        date: "2025-01-15T10:00:00+00:00",
        full_hash: hashes.first,
        author: "Ada Tester",
        email: "ada@example.com",
        body: "",
      },
    ]);
    const limited = await server.call("local_git", { task_type: "log", options: { limit: 1 } });
    expect(dataOf(limited.body)).toEqual({
      oneline: [`${hashes.head.slice(0, 7)} Add guide`],
      commits: [
        {
          hash: hashes.head.slice(0, 7),
          message: "Add guide",
          date: "2025-01-16T11:30:00+00:00",
          full_hash: hashes.head,
          author: "Ada Tester",
        },
      ],
      repo: ".",
    });
    const minimal = await server.call("local_git", { task_type: "log", response_level: "minimal" });
    expect(dataOf(minimal.body)).toEqual({
      oneline: [`${hashes.head.slice(0, 7)} Add guide`, `${hashes.first.slice(0, 7)} Initial commit`],
    });
    const byPath = await server.call("local_git", { task_type: "log", options: { paths: ["a.txt"] } });
    expect((dataOf(byPath.body).commits as { message: string }[]).map((c) => c.message)).toEqual(["Initial commit"]);
    const whole = await server.call("local_git", { task_type: "log", options: { paths: ["."] } });
    expect((dataOf(whole.body).commits as { message: string }[]).map((c) => c.message)).toEqual(["Add guide", "Initial commit"]);
  });

  it("lists every changed path once", async () => {
    const { body } = await server.call("local_git", { task_type: "changed_files" });
    expect(dataOf(body)).toEqual({
      count: 10,
      files: ["a.txt", "b.txt", "c2.txt", "d.txt", "e.txt", "f.txt", "img.bin", "new.txt", "space name.txt", "src/new/thing.ts"],
      repo: ".",
    });
    const minimal = await server.call("local_git", { task_type: "changed_files", response_level: "minimal" });
    expect(dataOf(minimal.body)).toEqual({ count: 10 });
  });
});

describe("local_git outside a repository", () => {
  it("says clearly that the directory is not a git repository", async () => {
    const plain = await tempDir("local-model-nogit-");
    const other = await connect(configFor({ LOCAL_MODEL_ROOTS: plain.path, LOCAL_MODEL_STATE_DIR: state.path }));
    try {
      const { isError, body } = await other.call("local_git", { task_type: "status" });
      expect(isError).toBe(true);
      expect(errorOf(body)).toMatchObject({ code: "NOT_FOUND", message: `${plain.path} is not inside a git repository.` });
    } finally {
      await other.close();
      await plain.remove();
    }
  });

  it("refuses paths outside the roots", async () => {
    const { body } = await server.call("local_git", { task_type: "status", options: { paths: ["../elsewhere"] } });
    expect(errorOf(body).code).toBe("FORBIDDEN");
  });
});
