/**
 * Runs git itself (never a shell) with a hardened configuration, so that a repository under the
 * roots — its content and its own config are not trusted — cannot make git run a program: git's
 * system and global config and attributes are ignored (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL,
 * GIT_ATTR_NOSYSTEM, HOME pointing nowhere), and command-line settings, which win over the
 * repository's config, turn off fsmonitor, hooks, external diff, pagers, transports (so no lazy
 * fetch) and implicit bare repositories; the caller adds `--no-ext-diff --no-textconv` to diff and
 * log and neutralises the repository's filters (filterOverrides). Output does not depend on the
 * user's config (no colours, no quoted paths, no optional locks), the call's AbortSignal is
 * passed through so a deadline kills the process, and git's failures are mapped to coded errors.
 */
import { execFile, type ExecFileException } from "node:child_process";
import { ToolError } from "@local-mcp/core";

const HARDENED_CONFIG = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.attributesFile=/dev/null",
  "core.askPass=",
  "core.sshCommand=false",
  "core.untrackedCache=false",
  "credential.helper=",
  "diff.external=",
  "protocol.allow=never",
  "safe.bareRepository=explicit",
  "submodule.recurse=false",
  "gpg.program=false",
  "log.showSignature=false",
  "core.quotepath=false",
  "color.ui=never",
];
const GLOBAL_ARGS = ["--no-pager", "--no-optional-locks", ...HARDENED_CONFIG.flatMap((setting) => ["-c", setting])];
const MAX_OUTPUT = 64 * 1024 * 1024;

/** Where HOME points for git: nowhere, so no ~/.gitconfig, ~/.config/git or ~/.gitattributes is read. */
const NO_HOME = "/nonexistent/local-model-git-home";

export interface GitRun {
  cwd: string;
  signal?: AbortSignal | undefined;
  /** The PATH git is looked up on (the server's, from its config). */
  searchPath?: string | undefined;
  /** Settings added after the hardened ones (the repository's filters neutralised). */
  config?: readonly string[] | undefined;
  /** Exit code 1 answers "" (git config's "no such key") instead of failing. */
  emptyOnExit1?: boolean;
}

/** git's whole environment: nothing inherited but PATH, so no GIT_* variable or config of the user's steers it. */
function gitEnvironment(searchPath: string | undefined): NodeJS.ProcessEnv {
  return {
    ...(searchPath === undefined ? {} : { PATH: searchPath }),
    HOME: NO_HOME,
    XDG_CONFIG_HOME: NO_HOME,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_NO_LAZY_FETCH: "1",
    GIT_PAGER: "cat",
    PAGER: "cat",
    LC_ALL: "C",
  };
}

export function runGit(args: readonly string[], options: GitRun): Promise<string> {
  const extra = (options.config ?? []).flatMap((setting) => ["-c", setting]);
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...GLOBAL_ARGS, ...extra, ...args],
      {
        cwd: options.cwd,
        env: gitEnvironment(options.searchPath),
        signal: options.signal,
        maxBuffer: MAX_OUTPUT,
        encoding: "utf8",
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error || (options.emptyOnExit1 && error.code === 1)) {
          resolve(error ? "" : stdout);
          return;
        }
        if (options.signal?.aborted) {
          reject(options.signal.reason);
          return;
        }
        reject(gitFailure(error, stderr, options.cwd));
      },
    );
  });
}

/**
 * Settings that neutralise every filter the repository's config defines (clean, smudge and
 * process commands run on status and diff for paths its .gitattributes maps to them): read with
 * `git config --get-regexp` (which runs nothing; includes followed, system and global ignored),
 * then each `filter.<name>.*` command set empty and `required` false, so git reads files as they
 * are.
 */
export async function filterOverrides(options: GitRun): Promise<string[]> {
  // Exit code 1 is git config's "no such key": no filters.
  const raw = await runGit(["config", "--includes", "-z", "--get-regexp", "^filter\\."], { ...options, emptyOnExit1: true });
  const names = new Set<string>();
  for (const entry of raw.split("\0")) {
    const key = entry.split("\n", 1)[0] ?? "";
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return [...names].flatMap((name) => [
    `filter.${name}.clean=`,
    `filter.${name}.smudge=`,
    `filter.${name}.process=`,
    `filter.${name}.required=false`,
  ]);
}

function gitFailure(error: ExecFileException, stderr: string, cwd: string): ToolError {
  if (error.code === "ENOENT") {
    return new ToolError("NOT_READY", "git is not installed or not on PATH.", {
      recoverable: false,
      suggestion: "Install git, or handle this task directly.",
    });
  }
  const message = stderr.trim().split("\n")[0] ?? "";
  if (/not a git repository/i.test(stderr)) {
    return new ToolError("NOT_FOUND", `${cwd} is not inside a git repository.`, {
      suggestion: "Pass `repo` pointing at a git work tree under the roots, or handle this task directly.",
      details: { directory: cwd },
    });
  }
  if (/unknown revision|bad revision|ambiguous argument|invalid object name|bad object/i.test(stderr)) {
    return new ToolError("INVALID_INPUT", `git does not know that revision: ${message}`, { details: { stderr: message } });
  }
  return new ToolError("UPSTREAM_ERROR", `git failed: ${message || error.message}`, {
    suggestion: "Run the git command directly to see what is wrong, or handle this task directly.",
    details: { stderr: stderr.slice(0, 2_000) },
  });
}

/** Refs accepted in options: no leading `-` (that would be an option), no whitespace or shell-ish characters. */
export function checkRef(ref: string, field: string): string {
  if (!/^[A-Za-z0-9._/~^@{}:+-]+$/.test(ref) || ref.startsWith("-") || ref.includes("..-")) {
    throw new ToolError("INVALID_INPUT", `${field} '${ref}' is not an accepted revision.`, {
      suggestion: "Use a branch, tag, commit hash, HEAD~N, or a range such as main...HEAD.",
      details: { field },
    });
  }
  return ref;
}
