// The light entry for file work (`@local-mcp/core/files`): the path guard, confined and atomic
// writes, directory locks. It loads node builtins and core's error type only — no MCP SDK — so a
// CLI command that reads and writes project files starts without the server's code (catdoc's
// `validate` is timed whole-process). The same functions are exported by the main entry too.
export { atomicWriteTempPath, syncDirectorySync, writeFileAtomic } from "./atomic-write.js";
export { ConfinementError, openConfined } from "./confined-open.js";
export { LockTimeoutError, withDirectoryLock } from "./directory-lock.js";
export { isProcessAlive } from "./process-alive.js";
export { errnoCode } from "./errno.js";
export { confinePath, pathErrorFrom, quotePath } from "./path-guard.js";
export type { PathErrorContext } from "./path-guard.js";
