import { statSync } from "node:fs";
import { resolve } from "node:path";
import { CliUsageError } from "./cli-usage-error.js";

/** The absolute root of the repository a command names; a path that is missing or not a directory is bad usage (one coded line, exit 2). */
export function repositoryRoot(repo: string): string {
  const root = resolve(repo);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new CliUsageError(`${root} does not exist; give the root directory of a repository`, "NOT_FOUND");
    if (code === "EACCES" || code === "EPERM") throw new CliUsageError(`${root} cannot be read (permission denied)`, "FORBIDDEN");
    throw error;
  }
  if (!isDirectory) throw new CliUsageError(`${root} is not a directory; give the root directory of a repository`, "INVALID_INPUT");
  return root;
}
