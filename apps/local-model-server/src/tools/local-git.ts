/**
 * local_git: git state as exact lists, from git itself — `status --porcelain=v2 -z`,
 * `diff --numstat -z` (`--cached` for staged), `log -z` with a fixed format. Renames and
 * deletions included; `paths` limit every command; `limit` bounds the log.
 *
 * Levels: minimal is a summary (status: counts per kind; diff: the totals; log: one line per
 * commit, short hash and subject; changed_files: the count), standard (the default) adds the
 * lists, full every detail.
 */
import { stat } from "node:fs/promises";
import { READ_ONLY, defineTool, lazySchema, ToolError, type ToolContext, type ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { shortStatusText } from "../domain/git/status-parser.js";
import { GitRepo, type PathFilter } from "../domain/git/git-repo.js";
import { clip, jsonTaskMessages } from "../domain/model/prompts.js";
import { gitDataSchema, type GitTask } from "../domain/model/task-schemas.js";
import type { LocalModelRuntime } from "../runtime.js";
import { chooseEngine } from "./engine-choice.js";
import { boundedArray, boundedInt, boundedString, closedObject, EngineChoiceSchema, contractOutput } from "./contract.js";
import type { Json, LevelTree, TaskOutcome } from "./task-response.js";
import { ModelTally, runTask } from "./run-task.js";
import { GIT_CHORES, gitChore, isGitChore } from "./git-chores.js";

const TASKS = ["status", "diff", "log", "changed_files", ...GIT_CHORES] as const;

// Listed with few words: the server's instructions say the rest once (paths, engine, levels).
const input = z.object({
  task_type: z.enum(TASKS),
  options: closedObject(
    {
      // only these paths
      paths: boundedArray(boundedString(4096), 100).optional(),
      limit: boundedInt(1, 1000).optional().describe("log: default 10"),
      // diff: the index against HEAD
      staged: z.boolean().optional(),
      // the revision compared with; log: where it starts
      ref: boundedString(200).optional(),
    },
    // Accepted, not listed: `detailed` is response_level full (levelFromInput below), which the listing offers instead.
    { format: z.enum(["summary", "detailed"]).optional() },
  ).optional(),
  // default: the first root
  repo: boundedString(4096).optional(),
  engine: EngineChoiceSchema,
});

const strings = z.array(z.string());
const output = lazySchema(() =>
  contractOutput(
    z.object({
      counts: z
        .object({
          staged: z.number().int(),
          modified: z.number().int(),
          untracked: z.number().int(),
          renamed: z.number().int(),
          deleted: z.number().int(),
          conflicted: z.number().int().optional(),
        })
        .optional()
        .describe("status, minimal: how many paths of each kind (the lists at standard)"),
      branch: z.string().nullable().optional(),
      staged: strings.optional(),
      modified: strings.optional(),
      untracked: strings.optional(),
      renamed: z.array(z.object({ from: z.string(), to: z.string() })).optional(),
      deleted: strings.optional(),
      conflicted: strings.optional(),
      files_changed: z.number().int().optional(),
      insertions: z.number().int().optional(),
      deletions: z.number().int().optional(),
      changes: z
        .array(
          z.object({
            file: z.string(),
            added: z.number().int(),
            removed: z.number().int(),
            from: z.string().optional(),
            binary: z.boolean().optional(),
          }),
        )
        .optional(),
      oneline: z
        .array(z.string())
        .optional()
        .describe("log, minimal: `<short hash> <subject>` per commit, newest first (as git log --oneline)"),
      commits: z
        .array(
          z.object({
            hash: z.string(),
            message: z.string(),
            date: z.string(),
            full_hash: z.string().optional(),
            author: z.string().optional(),
            email: z.string().optional(),
            body: z.string().optional(),
          }),
        )
        .optional()
        .describe("log, standard: the commits (full adds email and body)"),
      files: strings.optional(),
      count: z.number().int().optional(),
      repo: z.string().optional().describe("standard: the repository's top level; result paths are relative to it"),
      compared: z.string().optional(),
      oid: z.string().optional(),
      upstream: z.string().optional(),
      ahead: z.number().int().optional(),
      behind: z.number().int().optional(),
      entries: z
        .array(z.object({ path: z.string(), index: z.string(), worktree: z.string(), kind: z.string(), from: z.string().optional() }))
        .optional(),
      message: z.string().optional().describe("commit_message: the whole message (header, body, BREAKING CHANGE footer)"),
      header: z.string().optional(),
      type: z.string().optional(),
      scope: z.string().optional(),
      subject: z.string().optional(),
      body: z.string().optional(),
      breaking: z.string().optional(),
      summary: z.string().optional().describe("review: the model's summary of the diff"),
      reviewed: z
        .object({
          files_changed: z.number().int(),
          insertions: z.number().int(),
          deletions: z.number().int(),
          notes: z.number().int(),
          dropped: z.number().int(),
        })
        .optional(),
      notes: z
        .array(
          z.object({
            file: z.string(),
            line: z.number().int(),
            severity: z.string().optional(),
            note: z.string().optional(),
            code: z.string().optional(),
          }),
        )
        .optional()
        .describe("review, standard: notes anchored to lines of the diff's new side (full adds each line's code)"),
      dropped: z
        .array(z.object({ file: z.string(), line: z.number().int(), note: z.string(), why: z.string() }))
        .optional()
        .describe("review: notes whose anchor is not a line of the diff's new side, left out"),
    }),
  ),
);

export function localGitTool(runtime: LocalModelRuntime): ToolDefinition {
  return defineTool({
    name: "local_git",
    title: "Summarize git state",
    description: [
      "Git status, diff, log or changed files as exact lists instead of raw output;",
      "commit_message (staged) and review (staged, or options.ref) ask the local model.",
    ].join(" "),
    input,
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    // The lists are the answer: without response_level, answer at standard (minimal is the summary).
    responseLevel: "standard",
    // `options.format: "detailed"` (kept for compatibility) asks for level full when no response_level is given.
    levelFromInput: (args) => (args.options?.format === "detailed" ? "full" : undefined),
    timeoutMs: runtime.config.timeoutMs,
    handler: (args, ctx) => runTask(runtime, "local_git", ctx, () => git(runtime, args, ctx)),
  });
}

async function git(runtime: LocalModelRuntime, args: z.infer<typeof input>, ctx: ToolContext): Promise<TaskOutcome> {
  const options = args.options ?? {};
  const directory = args.repo === undefined ? runtime.guard.primaryRoot : await runtime.guard.resolveExisting(args.repo);
  if (!(await stat(directory)).isDirectory())
    throw new ToolError("INVALID_INPUT", `repo '${args.repo}' is not a directory.`, { details: { field: "repo" } });
  if (args.engine === "model") runtime.model.assertConfigured('engine "model"');
  const repo = await GitRepo.open(directory, runtime.guard, { signal: ctx.signal, searchPath: runtime.config.searchPath });
  const given = options.paths ?? [];
  const absolute = await Promise.all(given.map((p) => runtime.guard.resolveLoose(p)));
  const filter = repo.paths(absolute, given);
  const repoName = runtime.guard.display(repo.toplevel);
  if (isGitChore(args.task_type)) {
    chooseEngine(args.engine, { needsJudgment: `local_git ${args.task_type} (the wording is the model's)` }, runtime.model);
    return gitChore(runtime, args.task_type, repo, options, filter, repoName, ctx);
  }
  const { tree, raw, baseline } = await run(repo, args.task_type, options, filter, repoName, ctx.signal);
  const inputChars = (baseline ?? raw).length;

  if (args.engine === "model") {
    const tally = new ModelTally();
    const schema = gitDataSchema(args.task_type);
    const messages = jsonTaskMessages(
      "git output parser",
      `Parse this git ${args.task_type} output into the JSON structure. Paths are separated by NUL (shown as ⏎).`,
      [{ label: "GIT OUTPUT", text: clip(raw.replaceAll("\0", "⏎\n"), runtime.config.maxInputChars) }],
      schema,
    );
    const value = tally.add(await runtime.model.json<Json>({ messages, schema }, ctx.signal));
    const usage = tally.usage(runtime.model.name);
    return { engine: "model", data: modelTree(args.task_type, value, repoName), inputChars, ...(usage ? { model: usage } : {}) };
  }
  return { engine: "deterministic", data: tree, inputChars };
}

async function run(
  repo: GitRepo,
  task: GitTask,
  options: NonNullable<z.infer<typeof input>["options"]>,
  filter: PathFilter,
  repoName: string,
  signal: AbortSignal,
): Promise<{ tree: LevelTree; raw: string; baseline?: string }> {
  switch (task) {
    case "status": {
      const { value: s, raw } = await repo.status(filter, signal);
      const b = s.branch;
      return {
        raw,
        // what a caller would otherwise read: `git status --short`, not the porcelain v2 we parse
        baseline: shortStatusText(s.entries),
        tree: {
          minimal: { branch: b.head ?? null, counts: statusCounts(s) },
          standard: {
            ...statusLists(s),
            repo: repoName,
            ...(b.oid ? { oid: b.oid } : {}),
            ...(b.upstream ? { upstream: b.upstream } : {}),
            ...(b.ahead !== undefined ? { ahead: b.ahead } : {}),
            ...(b.behind !== undefined ? { behind: b.behind } : {}),
          },
          full: {
            entries: s.entries.map((e) => ({
              path: e.path,
              index: e.index,
              worktree: e.worktree,
              kind: e.kind,
              ...(e.from ? { from: e.from } : {}),
            })),
          },
        },
      };
    }
    case "diff": {
      const staged = options.staged === true;
      const { value, raw } = await repo.diff({ staged, ref: options.ref }, filter, signal);
      const compared =
        options.ref !== undefined
          ? `${staged ? "index" : "work tree"} vs ${options.ref}`
          : staged
            ? "index vs HEAD (staged)"
            : "work tree vs index (unstaged)";
      return { raw, tree: diffTree(value, repoName, compared) };
    }
    case "log": {
      const { value, raw } = await repo.log({ limit: options.limit ?? 10, ref: options.ref }, filter, signal);
      return {
        raw,
        tree: {
          minimal: { oneline: value.map((c) => `${c.hash} ${c.subject}`) },
          standard: {
            commits: value.map((c) => ({ hash: c.hash, message: c.subject, date: c.date, full_hash: c.fullHash, author: c.author })),
            repo: repoName,
          },
          full: { commits: value.map((c) => ({ email: c.email, body: c.body })) },
        },
      };
    }
    case "changed_files": {
      const { value, raw } = await repo.changedFiles(options.ref, filter, signal);
      return {
        raw,
        tree: {
          minimal: { count: value.length },
          standard: { files: value, repo: repoName, ...(options.ref ? { compared: `work tree vs ${options.ref}` } : {}) },
        },
      };
    }
  }
}

interface StatusLists {
  staged: string[];
  modified: string[];
  untracked: string[];
  renamed: { from: string; to: string }[];
  deleted: string[];
  conflicted?: string[];
}

function statusLists(s: StatusLists): Json {
  return {
    staged: s.staged,
    modified: s.modified,
    untracked: s.untracked,
    renamed: s.renamed,
    deleted: s.deleted,
    ...(s.conflicted && s.conflicted.length > 0 ? { conflicted: s.conflicted } : {}),
  };
}

function statusCounts(s: StatusLists): Json {
  return {
    staged: s.staged.length,
    modified: s.modified.length,
    untracked: s.untracked.length,
    renamed: s.renamed.length,
    deleted: s.deleted.length,
    ...(s.conflicted && s.conflicted.length > 0 ? { conflicted: s.conflicted.length } : {}),
  };
}

function diffTree(
  value: { files_changed: number; insertions: number; deletions: number; changes: unknown[] },
  repoName: string,
  compared?: string,
): LevelTree {
  const { changes, ...totals } = value;
  return { minimal: totals, standard: { changes, repo: repoName, ...(compared ? { compared } : {}) } };
}

const listOf = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** The model's parse of git's output (the shape of gitDataSchema), at the levels the exact engine uses. */
function modelTree(task: GitTask, value: Json, repoName: string): LevelTree {
  switch (task) {
    case "status": {
      const lists: StatusLists = {
        staged: listOf(value.staged),
        modified: listOf(value.modified),
        untracked: listOf(value.untracked),
        renamed: listOf(value.renamed),
        deleted: listOf(value.deleted),
      };
      return { minimal: { counts: statusCounts(lists) }, standard: { ...statusLists(lists), repo: repoName } };
    }
    case "diff": {
      const changes = listOf(value.changes);
      const number = (n: unknown) => (typeof n === "number" ? n : 0);
      return diffTree(
        { files_changed: number(value.files_changed), insertions: number(value.insertions), deletions: number(value.deletions), changes },
        repoName,
      );
    }
    case "log": {
      const commits = listOf<{ hash?: unknown; message?: unknown; date?: unknown }>(value.commits).map((c) => ({
        hash: String(c.hash ?? ""),
        message: String(c.message ?? ""),
        date: String(c.date ?? ""),
      }));
      return { minimal: { oneline: commits.map((c) => `${c.hash} ${c.message}`) }, standard: { commits, repo: repoName } };
    }
    case "changed_files": {
      const files = listOf<string>(value.files);
      return { minimal: { count: files.length }, standard: { files, repo: repoName } };
    }
  }
}
