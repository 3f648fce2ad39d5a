/**
 * `catdoc <args>` run in-process through the CLI's own program (runCli), with stdout and stderr
 * captured and the configuration read as the bin would in `cwd` (no CATDOC_PROJECT_PATH, logs
 * silenced); `extra` replaces parts of the setup (a browser opener, a stop signal).
 */
import { runCli } from "../../src/cli/program.js";
import type { CliSetup } from "../../src/cli/program.js";
import { loadCatDocConfig } from "../../src/config.js";

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(args: string[], cwd: string, extra: Partial<CliSetup> = {}): Promise<InProcessRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    io: { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } },
    loadConfig: async () => loadCatDocConfig({ LOCAL_MCP_LOG_LEVEL: "silent" }, cwd),
    cwd,
    version: "0.0.0",
    waitForStop: () => new Promise<string>(() => undefined),
    ...extra,
  });
  return { code, stdout, stderr };
}
