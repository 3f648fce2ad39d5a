/**
 * The stdout guard (issue #13, item 3): in a guarded process nothing but the stdio transport's
 * stream reaches stdout. A child process installs the built guard, then tries every way to
 * print: each console method, process.stdout.write, a Console made on process.stdout, and a
 * worker thread's console. Only the line written to protocolStdout() may appear on stdout;
 * everything else must arrive on stderr.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The built guard (turbo builds before tests).
const GUARD = fileURLToPath(new URL("../dist/server/stdout-guard.js", import.meta.url));

const METHODS = [
  "log",
  "info",
  "debug",
  "warn",
  "error",
  "trace",
  "dir",
  "dirxml",
  "table",
  "group",
  "groupCollapsed",
  "count",
  "timeLog",
  "assert",
];

const SCRIPT = `
import { Worker } from "node:worker_threads";
const { installStdoutGuard, protocolStdout, stdoutGuardInstalled } = await import(${JSON.stringify(GUARD)});
installStdoutGuard();
installStdoutGuard();
if (!stdoutGuardInstalled()) throw new Error("not installed");
for (const method of ${JSON.stringify(METHODS)}) {
  if (method === "assert") console.assert(false, "via-assert");
  else if (method === "timeLog") { console.time("via-timeLog"); console.timeLog("via-timeLog"); }
  else if (method === "count") console.count("via-count");
  else console[method]("via-" + method);
}
process.stdout.write("via-process.stdout.write\\n");
new console.Console(process.stdout).log("via-new-Console");
await new Promise((resolve, reject) => {
  const worker = new Worker("console.log('via-worker-console'); process.stdout.write('via-worker-stdout\\\\n');", { eval: true });
  worker.once("error", reject);
  worker.once("exit", resolve);
});
protocolStdout().write("PROTOCOL-LINE\\n");
`;

function run(): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", SCRIPT], (error, stdout, stderr) =>
      error ? reject(Object.assign(error, { stderr })) : resolve({ stdout, stderr }),
    );
  });
}

describe("stdout guard", () => {
  it("sends every console method, process.stdout and a worker's console to stderr; only the transport's stream reaches stdout", async () => {
    const { stdout, stderr } = await run();
    expect(stdout).toBe("PROTOCOL-LINE\n");
    for (const method of METHODS) expect(stderr, method).toContain(`via-${method}`);
    for (const marker of ["via-process.stdout.write", "via-new-Console", "via-worker-console", "via-worker-stdout"])
      expect(stderr).toContain(marker);
  });
});
