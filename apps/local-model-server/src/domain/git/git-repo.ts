/**
 * A git work tree under the roots and the four tasks on it: status, diff, log, changed files.
 * Paths in results are git's: relative to the repository's top level. When the repository is
 * larger than the roots, every command is limited to the roots, so nothing outside them is
 * listed.
 */
import { realpath } from "node:fs/promises";
import { relative, sep } from "node:path";
import { ToolError, isPathInside } from "@local-mcp/core";
import type { PathGuard } from "../paths/path-guard.js";
import { parseNumstat, type DiffSummary } from "./diff-parser.js";
import { parseUnifiedDiff, type DiffFile } from "./unified-diff.js";
import { checkRef, filterOverrides, runGit, type GitRun } from "./git-runner.js";
import { LOG_FORMAT, parseLog, type CommitInfo } from "./log-parser.js";
import { parsePorcelainV2, type GitStatus } from "./status-parser.js";

/** Raw git output is kept: its size is what reading it would have cost. */
export interface GitOutput<T> {
  value: T;
  raw: string;
}

export class GitRepo {
  private constructor(
    readonly toplevel: string,
    /** Pathspecs every command is limited to (the roots inside a larger repository), or none. */
    private readonly scope: string[],
    /** How git runs here: the hardened runner plus this repository's filters neutralised. */
    private readonly run: Omit<GitRun, "signal">,
  ) {}

  static async open(
    directory: string,
    guard: PathGuard,
    options: { signal?: AbortSignal | undefined; searchPath?: string | undefined } = {},
  ): Promise<GitRepo> {
    const { signal, searchPath } = options;
    const top = (await runGit(["rev-parse", "--show-toplevel"], { cwd: directory, signal, searchPath })).trim();
    const toplevel = await realpath(top);
    let scope: string[] = [];
    if (!guard.roots.some((root) => isPathInside(root, toplevel))) {
      scope = guard.roots.filter((root) => isPathInside(toplevel, root)).map((root) => literal(relative(toplevel, root)));
      // A work tree neither under nor around the roots (core.worktree pointing elsewhere): nothing of it may be listed.
      if (scope.length === 0) {
        throw new ToolError("FORBIDDEN", `The repository's work tree ${toplevel} is outside the allowed roots.`, {
          recoverable: false,
          suggestion: "Pass `repo` pointing at a git work tree under the roots, or handle this task directly.",
          details: { toplevel },
        });
      }
    }
    const config = await filterOverrides({ cwd: toplevel, signal, searchPath });
    return new GitRepo(toplevel, scope, { cwd: toplevel, searchPath, config });
  }

  /**
   * Real absolute paths under the roots as repository-relative paths. Status and diff run on the
   * whole (scoped) work tree and are filtered afterwards, so a rename is still seen as one when
   * only one of its two paths was asked for; log filters with literal pathspecs.
   */
  paths(absolutePaths: readonly string[], given: readonly string[]): PathFilter {
    const relativePaths = absolutePaths.map((path, i) => {
      if (!isPathInside(this.toplevel, path)) {
        throw new ToolError("INVALID_INPUT", `Path '${given[i] ?? path}' is not in the repository at ${this.toplevel}.`, {
          details: { field: `options.paths.${i}` },
        });
      }
      return relative(this.toplevel, path).split(sep).join("/");
    });
    return new PathFilter(relativePaths);
  }

  async status(filter: PathFilter, signal?: AbortSignal): Promise<GitOutput<GitStatus>> {
    const raw = await this.git(
      ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignore-submodules=all", "--", ...this.scope],
      signal,
    );
    return { value: filter.status(parsePorcelainV2(raw)), raw };
  }

  /** Unstaged changes (work tree vs index), staged ones (`staged`), or the work tree vs `ref`. */
  async diff(
    options: { staged: boolean; ref: string | undefined },
    filter: PathFilter,
    signal?: AbortSignal,
  ): Promise<GitOutput<DiffSummary>> {
    const args = ["diff", "--numstat", "-z", "-M", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all"];
    if (options.staged) args.push("--cached");
    if (options.ref !== undefined) args.push(checkRef(options.ref, "options.ref"));
    const raw = await this.git([...args, "--", ...this.scope], signal);
    return { value: filter.diff(parseNumstat(raw)), raw };
  }

  /**
   * The same comparison as `diff`, as a unified patch (3 lines of context) parsed into files and
   * hunks with new-side line numbers, limited like every command to the roots and the filter.
   */
  async patch(
    options: { staged: boolean; ref: string | undefined },
    filter: PathFilter,
    signal?: AbortSignal,
  ): Promise<GitOutput<DiffFile[]>> {
    const args = ["diff", "--unified=3", "-M", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", "--no-color"];
    if (options.staged) args.push("--cached");
    if (options.ref !== undefined) args.push(checkRef(options.ref, "options.ref"));
    const raw = await this.git([...args, "--", ...this.scope], signal);
    return { value: parseUnifiedDiff(raw).filter((f) => filter.matches(f.path) || filter.matches(f.from)), raw };
  }

  async log(
    options: { limit: number; ref: string | undefined },
    filter: PathFilter,
    signal?: AbortSignal,
  ): Promise<GitOutput<CommitInfo[]>> {
    if (options.ref === undefined && !(await this.hasCommits(signal))) return { value: [], raw: "" };
    const args = ["log", "-z", "--no-ext-diff", "--no-textconv", `--format=${LOG_FORMAT}`, "-n", String(options.limit)];
    if (options.ref !== undefined) args.push(checkRef(options.ref, "options.ref"));
    const pathspecs = filter.isEmpty ? this.scope : filter.paths.map(literal);
    const raw = await this.git([...args, "--", ...pathspecs], signal);
    return { value: parseLog(raw), raw };
  }

  /** Files that differ from HEAD (staged or not) plus untracked ones; or those changed since `ref`. */
  async changedFiles(ref: string | undefined, filter: PathFilter, signal?: AbortSignal): Promise<GitOutput<string[]>> {
    if (ref !== undefined) {
      const { value, raw } = await this.diff({ staged: false, ref }, filter, signal);
      return { value: [...new Set(value.changes.map((c) => c.file))].sort(), raw };
    }
    const { value, raw } = await this.status(filter, signal);
    const files = new Set([...value.staged, ...value.modified, ...value.untracked, ...value.deleted, ...value.conflicted]);
    return { value: [...files].sort(), raw };
  }

  private async hasCommits(signal?: AbortSignal): Promise<boolean> {
    return this.git(["rev-parse", "--verify", "-q", "HEAD"], signal).then(
      () => true,
      () => false,
    );
  }

  private git(args: readonly string[], signal?: AbortSignal): Promise<string> {
    return runGit(args, { ...this.run, signal });
  }
}

/** Keeps the entries at or below the asked paths (a rename matches by either of its paths). */
export class PathFilter {
  constructor(readonly paths: readonly string[]) {}

  get isEmpty(): boolean {
    return this.paths.length === 0;
  }

  matches(path: string | undefined): boolean {
    if (path === undefined) return false;
    return this.isEmpty || this.paths.some((p) => p === "" || path === p || path.startsWith(`${p}/`));
  }

  status(status: GitStatus): GitStatus {
    if (this.isEmpty) return status;
    const keep = (path: string) => this.matches(path) || status.renamed.some((r) => r.to === path && this.matches(r.from));
    return {
      branch: status.branch,
      staged: status.staged.filter(keep),
      modified: status.modified.filter(keep),
      untracked: status.untracked.filter(keep),
      renamed: status.renamed.filter((r) => this.matches(r.to) || this.matches(r.from)),
      deleted: status.deleted.filter(keep),
      conflicted: status.conflicted.filter(keep),
      entries: status.entries.filter((e) => this.matches(e.path) || this.matches(e.from)),
    };
  }

  diff(summary: DiffSummary): DiffSummary {
    if (this.isEmpty) return summary;
    const changes = summary.changes.filter((c) => this.matches(c.file) || this.matches(c.from));
    return {
      files_changed: changes.length,
      insertions: changes.reduce((sum, c) => sum + c.added, 0),
      deletions: changes.reduce((sum, c) => sum + c.removed, 0),
      changes,
    };
  }
}

function literal(relativePath: string): string {
  const posix = relativePath.split(sep).join("/");
  return posix === "" ? ":(literal)." : `:(literal)${posix}`;
}
