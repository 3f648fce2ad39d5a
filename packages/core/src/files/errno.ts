/** The `code` of a Node.js system error (`"ENOENT"`, `"EACCES"`, …), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Whether a file-system error means the path (or one of its parents) does not exist. */
export function isMissingPathError(error: unknown): boolean {
  const code = errnoCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}
