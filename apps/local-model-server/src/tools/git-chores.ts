/**
 * local_git's two model chores over a diff (issue 20 item 5): `commit_message` (the staged diff:
 * Conventional Commits, the file list and counts from git, the wording from the model) and
 * `review` (the staged diff, or the diff against `options.ref`, which may be a range: notes
 * anchored to lines of the diff's new side; misplaced ones are dropped and listed in `dropped`,
 * the kept ones stand on their own, so success stays true). Both go through
 * the model gate (answer-gate.ts) and count tokens like every model task.
 */
import { ToolError, type ToolContext } from "@local-mcp/core";
import { commitMessageCheck, commitMessagePrompt, COMMIT_SCHEMA, formatCommit, type CommitDraft } from "../domain/git/commit-message.js";
import type { GitRepo, PathFilter } from "../domain/git/git-repo.js";
import { numberedDiff } from "../domain/git/unified-diff.js";
import { REVIEW_BOUNDS, REVIEW_SCHEMA, ReviewAnchors, reviewPrompt, type ReviewDraft } from "../domain/git/review-notes.js";
import { SHORT_ANSWER_BOUNDS } from "../domain/model/task-schemas.js";
import type { LocalModelRuntime } from "../runtime.js";
import { ModelTally } from "./run-task.js";
import type { TaskOutcome } from "./task-response.js";

export const GIT_CHORES = ["commit_message", "review"] as const;
export type GitChore = (typeof GIT_CHORES)[number];

export function isGitChore(task: string): task is GitChore {
  return (GIT_CHORES as readonly string[]).includes(task);
}

export async function gitChore(
  runtime: LocalModelRuntime,
  task: GitChore,
  repo: GitRepo,
  options: { ref?: string | undefined; staged?: boolean | undefined },
  filter: PathFilter,
  repoName: string,
  ctx: ToolContext,
): Promise<TaskOutcome> {
  runtime.model.assertConfigured(`local_git ${task} (the wording is the model's)`);
  // commit_message describes what is staged; review takes a ref (or range) when given, else the staged diff.
  const compare =
    task === "review" && options.ref !== undefined
      ? { staged: options.staged === true, ref: options.ref }
      : { staged: true, ref: undefined };
  const compared = compare.ref !== undefined ? `${compare.staged ? "index" : "work tree"} vs ${compare.ref}` : "index vs HEAD (staged)";
  const [{ value: summary }, { value: files, raw }] = await Promise.all([
    repo.diff(compare, filter, ctx.signal),
    repo.patch(compare, filter, ctx.signal),
  ]);
  if (summary.files_changed === 0) {
    throw new ToolError(
      "INVALID_INPUT",
      `There is nothing to ${task === "review" ? "review" : "describe"}: the diff (${compared}) is empty.`,
      {
        suggestion:
          task === "review" ? "Stage the changes (git add), or pass options.ref (e.g. main...HEAD)." : "Stage the changes first (git add).",
        details: { field: task === "review" ? "options.ref" : "task_type" },
      },
    );
  }
  const tally = new ModelTally();
  const totals = { files_changed: summary.files_changed, insertions: summary.insertions, deletions: summary.deletions };
  if (task === "commit_message") {
    const draft = tally.add(
      await runtime.model.json<CommitDraft>(
        {
          messages: commitMessagePrompt(summary.changes, numberedDiff(files), runtime.config.maxInputChars),
          schema: COMMIT_SCHEMA,
          grammarBounds: SHORT_ANSWER_BOUNDS,
          check: commitMessageCheck(summary.changes),
        },
        ctx.signal,
      ),
    );
    const { message, ...parts } = formatCommit(draft);
    const usage = tally.usage(runtime.model.name);
    return {
      engine: "model",
      data: { minimal: { message, ...totals }, standard: { ...parts, changes: summary.changes, repo: repoName, compared } },
      inputChars: raw.length,
      ...(usage ? { model: usage } : {}),
    };
  }
  const anchors = new ReviewAnchors(files);
  const draft = tally.add(
    await runtime.model.json<ReviewDraft>(
      {
        messages: reviewPrompt(files, runtime.config.maxInputChars),
        schema: REVIEW_SCHEMA,
        grammarBounds: REVIEW_BOUNDS,
        check: anchors.check(),
      },
      ctx.signal,
    ),
  );
  const { kept, dropped } = anchors.split(draft);
  const usage = tally.usage(runtime.model.name);
  return {
    engine: "model",
    data: {
      minimal: { summary: draft.summary.trim(), reviewed: { ...totals, notes: kept.length, dropped: dropped.length } },
      standard: {
        notes: kept.map(({ code: _code, ...note }) => note),
        ...(dropped.length > 0 ? { dropped } : {}),
        repo: repoName,
        compared,
      },
      full: { notes: kept.map(({ code }) => ({ code })), changes: summary.changes },
    },
    inputChars: raw.length,
    ...(usage ? { model: usage } : {}),
  };
}
