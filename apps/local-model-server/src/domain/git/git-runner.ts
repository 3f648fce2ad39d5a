/**
 * Runs git itself (never a shell): fixed global options so output does not depend on the user's
 * config (no colours, no quoted paths, no optional locks, no external diff), the call's
 * AbortSignal passed through so a deadline kills the process, and git's failures mapped to
 * coded errors.
 */
import { execFile, type ExecFileException } from "node:child_process";
import { ToolError } from "@local-mcp/core";

const GLOBAL_ARGS = ["--no-optional-locks", "-c", "core.quotepath=false", "-c", "color.ui=never", "-c", "diff.external=", "-c", "log.showSignature=false"];
const MAX_OUTPUT = 64 * 1024 * 1024;

export interface GitRun {
  cwd: string;
  signal?: AbortSignal | undefined;
}

export function runGit(args: readonly string[], options: GitRun): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...GLOBAL_ARGS, ...args],
      { cwd: options.cwd, signal: options.signal, maxBuffer: MAX_OUTPUT, encoding: "utf8", windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
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
