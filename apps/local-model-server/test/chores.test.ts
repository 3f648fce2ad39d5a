/**
 * The chores people offload (issue 20 item 5), against a loopback fake of an OpenAI-compatible
 * server and real git repositories in a temporary directory: local_git commit_message (the
 * staged diff; files and counts from git, wording from the model, Conventional Commits checked),
 * local_git review (notes anchored to the diff's new side; misplaced ones dropped and reported),
 * and local_ask (the caller's JSON Schema, validated, retried, tokens counted).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeOpenAi } from "@local-mcp/core/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GIT_ENV } from "./git-repo-fixture.js";
import { configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

let dir: Awaited<ReturnType<typeof tempDir>>;
let fake: FakeOpenAi;
let server: Connected;
/** Model answers for the next chat requests, in order. */
const replies: string[] = [];
let repo: string;
let review: string;

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });
function write(root: string, path: string, content: string) {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), content);
}
/** What the model was sent last (system + user + any feedback), as one text. */
const lastPrompt = () => JSON.stringify(fake.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)?.body ?? {});
const chatRequests = () => fake.requests.filter((r) => r.path === "/v1/chat/completions").length;

const STORE_V1 = ["export function createStore() {", "  const items: string[] = [];", "  return { items };", "}", ""].join("\n");
const STORE_V2 = [
  "export function createStore() {",
  "  const items: string[] = [];",
  "  const add = (item: string) => items.push(item);",
  "  const reset = () => (items.length = 0);",
  "  return { items, add, reset };",
  "}",
  "",
].join("\n");

beforeAll(async () => {
  dir = await tempDir("local-model-chores-");
  repo = join(dir.path, "app");
  review = join(dir.path, "review");
  for (const root of [repo, review]) {
    mkdirSync(root);
    git(root, "init", "-q", "-b", "main");
  }
  // app: one commit, then staged: a modified store (+3 -1), a new guide; unstaged: an edit that is not described.
  write(repo, "src/store.ts", STORE_V1);
  write(repo, "README.md", "# App\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "init");
  write(repo, "src/store.ts", STORE_V2);
  write(repo, "docs/guide.md", "# Guide\n\nCall createStore().\n");
  git(repo, "add", "src/store.ts", "docs/guide.md");
  write(repo, "README.md", "# App\n\nunstaged\n");
  // review: two commits; HEAD changes lines 3-4 of a 12-line file and adds a second file.
  const lines = Array.from({ length: 12 }, (_, i) => `const v${i + 1} = ${i + 1};`);
  write(review, "src/values.ts", `${lines.join("\n")}\n`);
  git(review, "add", ".");
  git(review, "commit", "-q", "-m", "values");
  lines[2] = "const v3 = compute(3);";
  lines[3] = "const v4 = compute(4); // TODO";
  write(review, "src/values.ts", `${lines.join("\n")}\n`);
  write(review, "src/compute.ts", "export function compute(n: number) {\n  return n * 2;\n}\n");
  git(review, "add", ".");
  git(review, "commit", "-q", "-m", "compute");

  fake = await new FakeOpenAi().start();
  const standard = fake.fallback;
  fake.fallback = (path, body) => {
    if (path !== "/v1/chat/completions") return standard(path, body);
    const content = replies.shift() ?? "";
    return {
      status: 200,
      body: {
        choices: [
          { message: { content }, finish_reason: "stop", logprobs: { content: [{ logprob: Math.log(0.9) }, { logprob: Math.log(0.95) }] } },
        ],
        usage: { prompt_tokens: 300, completion_tokens: 40 },
      },
    };
  };
  server = await connect(
    configFor({
      LOCAL_MODEL_ROOTS: `${repo}:${review}`,
      LOCAL_MODEL_STATE_DIR: join(dir.path, "state"),
      LOCAL_MODEL_REMOTE_BASE_URL: fake.url,
      LOCAL_MODEL_REMOTE_MODEL: "fake-model",
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await fake?.stop();
  await dir?.remove();
});

beforeEach(() => {
  replies.length = 0;
});

const commit = (draft: Record<string, unknown>) =>
  JSON.stringify({ type: "feat", scope: "store", subject: "add and reset items", body: null, breaking: null, ...draft });

describe("local_git commit_message", () => {
  it("words a Conventional Commits message for the staged diff, with the file list and counts from git", async () => {
    replies.push(commit({ body: "createStore gains add and reset, and docs/guide.md says how to use it." }));
    const { isError, body } = await server.call("local_git", { task_type: "commit_message", repo, response_level: "standard" });
    expect(isError, JSON.stringify(body)).toBe(false);
    const numstat = git(repo, "diff", "--cached", "--numstat")
      .trim()
      .split("\n")
      .map((l) => l.split("\t"))
      .map(([added, removed, file]) => ({ file, added: Number(added), removed: Number(removed) }));
    expect(body).toMatchObject({
      success: true,
      engine: "model",
      confidence: 0.925,
      retries: 0,
      tokens_used: 340,
      model: expect.stringContaining("fake-model"),
    });
    expect(dataOf(body)).toEqual({
      message: "feat(store): add and reset items\n\ncreateStore gains add and reset, and docs/guide.md says how to use it.",
      files_changed: 2,
      insertions: numstat.reduce((s, c) => s + c.added, 0),
      deletions: numstat.reduce((s, c) => s + c.removed, 0),
      header: "feat(store): add and reset items",
      type: "feat",
      scope: "store",
      subject: "add and reset items",
      body: "createStore gains add and reset, and docs/guide.md says how to use it.",
      changes: expect.arrayContaining(numstat),
      repo: ".",
      compared: "index vs HEAD (staged)",
    });
    expect((dataOf(body).changes as unknown[]).length).toBe(2);
    // The model saw git's exact list (the unstaged README edit is not in it) and the staged diff.
    const prompt = lastPrompt();
    expect(prompt).toContain("src/store.ts: +3 -1");
    expect(prompt).toContain("docs/guide.md: +3 -0");
    expect(prompt).not.toContain("unstaged");
    expect(prompt).toContain("    4 +   const reset = () => (items.length = 0);");
  });

  it("retries a header over 72 characters and a message naming a file the commit does not change, then accepts", async () => {
    replies.push(
      commit({ subject: "add an add function and a reset function to the store so that callers can manage items" }),
      commit({ subject: "update README.md and the store" }),
      commit({ subject: "add and reset items." }),
    );
    const before = chatRequests();
    const { body } = await server.call("local_git", { task_type: "commit_message", repo, response_level: "minimal" });
    expect(chatRequests() - before).toBe(3);
    expect(body).toMatchObject({ success: true, retries: 2, tokens_used: 3 * 340 });
    // minimal: the message and git's counts; the trailing period is dropped.
    expect(dataOf(body)).toEqual({ message: "feat(store): add and reset items", files_changed: 2, insertions: 6, deletions: 1 });
    expect(lastPrompt()).toContain(
      "the message names README.md, which this commit does not change (it changes docs/guide.md, src/store.ts)",
    );
    const second = JSON.stringify(fake.requests.filter((r) => r.path === "/v1/chat/completions").at(-2)?.body);
    expect(second).toContain("is 99 characters; at most 72: shorten the subject");
  });

  it("describes only the paths asked for (options.paths): list, counts and diff", async () => {
    replies.push(commit({ type: "docs", scope: null, subject: "add a usage guide" }));
    const { body } = await server.call("local_git", {
      task_type: "commit_message",
      repo,
      options: { paths: ["docs"] },
      response_level: "minimal",
    });
    expect(dataOf(body)).toEqual({ message: "docs: add a usage guide", files_changed: 1, insertions: 3, deletions: 0 });
    expect(lastPrompt()).toContain("docs/guide.md: +3 -0");
    expect(lastPrompt()).not.toContain("store.ts");
  });

  it("refuses when every attempt fails the checks (UPSTREAM_ERROR), and needs something staged, and a model", async () => {
    replies.push(commit({ subject: "" }), commit({ subject: " " }), commit({ subject: "x" }));
    const refused = await server.call("local_git", { task_type: "commit_message", repo });
    expect(refused.isError).toBe(true);
    expect(errorOf(refused.body)).toMatchObject({ code: "UPSTREAM_ERROR", details: { attempts: 3 } });
    expect(errorOf(refused.body).message).toMatch(/refused after 3 attempts: the subject is empty/);
    const nothing = await server.call("local_git", { task_type: "commit_message", repo: review });
    expect(errorOf(nothing.body)).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/^There is nothing to describe/) });
    const forced = await server.call("local_git", { task_type: "commit_message", repo, engine: "deterministic" });
    expect(errorOf(forced.body).code).toBe("INVALID_INPUT");
  });
});

describe("local_git review", () => {
  it("anchors notes to lines of the diff's new side over a ref range, dropping and reporting the rest", async () => {
    replies.push(
      JSON.stringify({
        summary: "Replaces two constants with calls to a new compute helper.",
        notes: [
          { file: "src/values.ts", line: 4, severity: "issue", note: "A TODO is committed on this line." },
          { file: "src/compute.ts", line: 2, severity: "suggestion", note: "Name the factor 2." },
          { file: "src/values.ts", line: 6, severity: "nit", note: "Context line, still in the hunk." },
          { file: "src/values.ts", line: 12, severity: "nit", note: "Outside every hunk." },
          { file: "src/other.ts", line: 1, severity: "question", note: "Not in the diff at all." },
        ],
      }),
    );
    const { isError, body } = await server.call("local_git", {
      task_type: "review",
      repo: review,
      options: { ref: "HEAD~1..HEAD" },
      response_level: "full",
    });
    expect(isError, JSON.stringify(body)).toBe(false);
    expect(body).toMatchObject({ success: true, engine: "model" });
    expect(dataOf(body)).toMatchObject({
      summary: "Replaces two constants with calls to a new compute helper.",
      reviewed: { files_changed: 2, insertions: 5, deletions: 2, notes: 3, dropped: 2 },
      notes: [
        {
          file: "src/values.ts",
          line: 4,
          severity: "issue",
          note: "A TODO is committed on this line.",
          code: "const v4 = compute(4); // TODO",
        },
        { file: "src/compute.ts", line: 2, severity: "suggestion", code: "return n * 2;" },
        { file: "src/values.ts", line: 6, code: "const v6 = 6;" },
      ],
      dropped: [
        {
          file: "src/values.ts",
          line: 12,
          why: expect.stringMatching(/^line 12 of src\/values\.ts is not on the diff's new side \(its lines there: 1–7/),
        },
        { file: "src/other.ts", line: 1, why: "src/other.ts is not in the diff" },
      ],
      compared: "work tree vs HEAD~1..HEAD",
    });
    // The model read the diff with the new side's line numbers.
    expect(lastPrompt()).toContain("    4 + const v4 = compute(4); // TODO");
  });

  it("reviews the staged diff by default, and retries an answer whose every note is misplaced", async () => {
    replies.push(
      JSON.stringify({
        summary: "Adds add and reset to the store.",
        notes: [{ file: "src/store.ts", line: 40, severity: "nit", note: "Far away." }],
      }),
      JSON.stringify({
        summary: "Adds add and reset to the store.",
        notes: [{ file: "src/store.ts", line: 4, severity: "suggestion", note: "reset could return void." }],
      }),
    );
    const { body } = await server.call("local_git", { task_type: "review", repo });
    expect(body).toMatchObject({ success: true, retries: 1 });
    expect(dataOf(body)).toMatchObject({
      reviewed: { files_changed: 2, notes: 1, dropped: 0 },
      notes: [{ file: "src/store.ts", line: 4 }],
    });
    expect(lastPrompt()).toContain("no note is anchored to the diff: line 40 of src/store.ts is not on the diff's new side");
  });
});

describe("local_ask", () => {
  const SCHEMA = {
    type: "object",
    properties: { count: { type: "integer" }, names: { type: "array", items: { type: "string" } } },
    required: ["count", "names"],
    additionalProperties: false,
  };

  it("answers JSON valid against the caller's schema, retrying an invalid answer, with every attempt's tokens counted", async () => {
    replies.push(JSON.stringify({ count: "two", names: [] }), JSON.stringify({ count: 2, names: ["add", "reset"] }));
    const { body } = await server.call("local_ask", {
      question: "Which functions does createStore return besides items?",
      files: [join(repo, "src/store.ts")],
      schema: SCHEMA,
      response_level: "full",
    });
    expect(body).toMatchObject({
      success: true,
      engine: "model",
      retries: 1,
      schema_valid: true,
      tokens_used: 680,
      data: { answer: { count: 2, names: ["add", "reset"] }, files: [join(repo, "src/store.ts")], schema: SCHEMA },
      stats: { model_calls: 1, model_tokens_in: 600, model_tokens_out: 80 },
    });
    expect(lastPrompt()).toContain("4:   const reset = () => (items.length = 0);");
    expect(lastPrompt()).toContain("Your previous answer was rejected");
  });

  it("refuses an empty answer after the retries, a schema Ajv rejects before asking, and nothing without a model", async () => {
    replies.push('{"answer": ""}', '{"answer": " "}', '{"answer": ""}');
    const empty = await server.call("local_ask", { question: "What does reset do?", text: "reset empties the list" });
    expect(errorOf(empty.body)).toMatchObject({
      code: "UPSTREAM_ERROR",
      message: expect.stringMatching(/refused after 3 attempts: the answer is empty/),
    });
    const before = chatRequests();
    const bad = await server.call("local_ask", { question: "Anything?", schema: { type: "objekt" } });
    expect(errorOf(bad.body)).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/^The JSON schema is not valid/) });
    expect(chatRequests()).toBe(before);
    const bare = await connect(configFor({ LOCAL_MODEL_ROOTS: repo, LOCAL_MODEL_STATE_DIR: join(dir.path, "state2") }));
    try {
      const none = await bare.call("local_ask", { question: "Anything?" });
      expect(errorOf(none.body)).toMatchObject({ code: "NOT_READY", message: "No model is configured, and local_ask needs one." });
    } finally {
      await bare.close();
    }
  });
});
