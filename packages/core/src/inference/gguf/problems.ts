import { ToolError } from "../../errors.js";

/** One reason a GGUF file must not be handed to llama.cpp. */
export interface GgufProblem {
  /** The file the problem is in (model or adapter). */
  readonly file: string;
  /** What is wrong, in words a user can act on. */
  readonly problem: string;
}

/** `file: problem; file: problem`: every problem, each naming its file. */
export function describeProblems(problems: readonly GgufProblem[]): string {
  return problems.map((p) => `${p.file}: ${p.problem}`).join("; ");
}

/**
 * Throws `NOT_READY` naming the file and the problem(s) when there are any, so a tool answers
 * with a message the user can act on instead of llama.cpp aborting the process.
 */
export function throwIfProblems(problems: readonly GgufProblem[], suggestion?: string): void {
  if (problems.length === 0) return;
  throw new ToolError("NOT_READY", describeProblems(problems), {
    suggestion:
      suggestion ?? "Fix or replace the named file (re-download or re-convert it), or point the configuration at a compatible one.",
    details: { problems: problems.map((p) => ({ file: p.file, problem: p.problem })) },
  });
}
