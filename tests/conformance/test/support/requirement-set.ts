/**
 * The official suite's requirement sets (`@modelcontextprotocol/conformance-next`, the 0.2 line
 * pinned in the catalog as an alias): `conformance server --url URL --requirements REVISION -o DIR`
 * runs every scenario a spec revision requires, at that revision's wire (2026-07-28: stateless,
 * a `_meta` envelope on every request), plus the scenarios it runs without scoring (extensions,
 * pending). One process per server; each scenario writes `server-<scenario>-<timestamp>/checks.json`
 * under DIR. Its exit code is 1 exactly when a required scenario has a FAILURE check (WARNING is a
 * SHOULD and does not count), whatever the unscored ones did.
 *
 * `evaluateRequirementRun` judges a run against the expected failures (the suite's own fixture
 * scenarios, support/expected-failures-2026.ts) and names every other failure by requirement:
 * `<scenario> › <check id>`.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { conformanceCli, conformanceNode, type ConformanceCheck } from "./conformance-suite.js";
import type { ExpectedFailure, Fixture } from "./expected-failures-2026.js";

/** The suite that carries the requirement sets: conformance 0.2.0-alpha.12 under its catalog alias. */
export const REQUIREMENTS_PACKAGE = "@modelcontextprotocol/conformance-next";

export interface RequirementSet {
  revision: string;
  /** The server scenarios the revision requires (scored). */
  required: string[];
  /** Server scenarios the suite runs and reports without scoring, with its reason (extension, pending, ...). */
  notScored: { scenario: string; reason: string }[];
}

/** The server leg of a requirement set, as the suite's `list --requirements REVISION` prints it. */
export function readRequirementSet(revision: string): RequirementSet {
  const text = execFileSync(conformanceNode(), [conformanceCli(REQUIREMENTS_PACKAGE), "list", "--requirements", revision], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const required: string[] = [];
  const notScored: { scenario: string; reason: string }[] = [];
  let section: "server" | "other" | "not-scored" = "other";
  let reason = "";
  for (const line of text.split("\n")) {
    if (/^Server scenarios/.test(line)) section = "server";
    else if (/^Client scenarios/.test(line)) section = "other";
    else if (/^Run and reported, but never scored/.test(line)) section = "not-scored";
    const item = /^ {2}- (\S+)$/.exec(line);
    if (section === "server" && item?.[1] !== undefined) required.push(item[1]);
    const heading = /^ {2}([a-z-]+) \(\d+\):$/.exec(line);
    if (section === "not-scored" && heading?.[1] !== undefined) reason = heading[1];
    const unscored = /^ {4}- (\S+) \[server\]$/.exec(line);
    if (section === "not-scored" && unscored?.[1] !== undefined) notScored.push({ scenario: unscored[1], reason });
  }
  if (required.length === 0) throw new Error(`conformance list --requirements ${revision} named no server scenario:\n${text}`);
  return { revision, required, notScored };
}

export interface RequirementRun {
  revision: string;
  exitCode: number | null;
  /** The checks of every scenario that wrote checks.json, by scenario. */
  scenarios: Map<string, ConformanceCheck[]>;
  /** Why a scenario wrote no checks.json ("Failed to run scenario NAME: ..."), by scenario. */
  crashed: Map<string, string>;
  /** The CLI's stdout and stderr. */
  output: string;
  dir: string;
}

const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Runs a revision's whole requirement set against a server URL; results go to `dir`. */
export async function runRequirementSet(url: string, revision: string, dir: string): Promise<RequirementRun> {
  await mkdir(dir, { recursive: true });
  const { exitCode, stdout, stderr } = await new Promise<{ exitCode: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      conformanceNode(),
      [conformanceCli(REQUIREMENTS_PACKAGE), "server", "--url", url, "--requirements", revision, "-o", dir],
      { cwd: dir, timeout: 240_000, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" }, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ exitCode: code, stdout: out, stderr: `${err}${error && code === null ? `\n${error.message}` : ""}` });
      },
    );
  });
  const scenarios = new Map<string, ConformanceCheck[]>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const scenario = RESULT_DIR.exec(entry.name)?.[1];
    const file = join(dir, entry.name, "checks.json");
    if (!entry.isDirectory() || scenario === undefined || !existsSync(file)) continue;
    scenarios.set(scenario, JSON.parse(await readFile(file, "utf8")) as ConformanceCheck[]);
  }
  const crashed = new Map<string, string>();
  for (const match of stderr.matchAll(/^Failed to run scenario (\S+): (.*)$/gm)) {
    if (match[1] !== undefined) crashed.set(match[1], match[2] ?? "");
  }
  return { revision, exitCode, scenarios, crashed, output: `${stdout}${stderr}`, dir };
}

/** What a server offers, compared with the fixtures an expected failure names. */
export interface ServerListing {
  tools: ReadonlySet<string>;
  prompts: ReadonlySet<string>;
  resources: ReadonlySet<string>;
  resourceTemplates: ReadonlySet<string>;
}

export function hasFixture(listing: ServerListing, fixture: Fixture): boolean {
  switch (fixture.kind) {
    case "tool":
      return listing.tools.has(fixture.name);
    case "prompt":
      return listing.prompts.has(fixture.name);
    case "resource":
      return listing.resources.has(fixture.name);
    case "resourceTemplate":
      return listing.resourceTemplates.has(fixture.name);
  }
}

export interface ScenarioVerdict {
  scenario: string;
  /** Real failures, one line each: `<scenario> › <check id>: <status> — <message>`. */
  failures: string[];
  /** Failures excused by an expected-failure entry, with the entry's reason. */
  excused: string[];
  /** SHOULD-level findings (WARNING): reported, not failing. */
  warnings: string[];
}

const line = (scenario: string, check: ConformanceCheck) =>
  `${scenario} › ${check.id}: ${check.status}${check.errorMessage ? ` — ${check.errorMessage}` : ""}`;

/**
 * Judges one required scenario of a run. A FAILURE check is excused only by an entry for this
 * scenario that names the check and applies to this server (it lacks one of the fixtures the entry
 * names); everything else is a failure. An applicable entry is stale — a failure too — when one of
 * its checks succeeds, or when none of them failed. A scenario that wrote no checks is a failure.
 */
export function evaluateScenario(
  run: Pick<RequirementRun, "scenarios" | "crashed">,
  scenario: string,
  expected: readonly ExpectedFailure[],
  listing: ServerListing,
): ScenarioVerdict {
  const verdict: ScenarioVerdict = { scenario, failures: [], excused: [], warnings: [] };
  const checks = run.scenarios.get(scenario);
  if (checks === undefined || checks.length === 0) {
    const why = run.crashed.get(scenario) ?? "no checks.json was written";
    verdict.failures.push(`${scenario} › (the scenario did not run): ${why}`);
    return verdict;
  }
  const entries = expected.filter((entry) => entry.scenario === scenario);
  const applicable = entries.filter((entry) => entry.needs.some((fixture) => !hasFixture(listing, fixture)));
  for (const entry of entries.filter((candidate) => !applicable.includes(candidate))) {
    verdict.failures.push(
      `${scenario} › expected-failure entry for ${entry.checks.join(", ")} does not apply: the server offers every fixture it names (${entry.needs.map((f) => f.name).join(", ")}); remove it`,
    );
  }
  for (const check of checks) {
    if (check.status === "WARNING") verdict.warnings.push(line(scenario, check));
    if (check.status !== "FAILURE") continue;
    const entry = applicable.find((candidate) => candidate.checks.includes(check.id));
    if (entry === undefined) verdict.failures.push(line(scenario, check));
    else verdict.excused.push(`${line(scenario, check)} (expected: ${entry.reason})`);
  }
  for (const entry of applicable) {
    const listed = checks.filter((check) => entry.checks.includes(check.id));
    for (const check of listed.filter((c) => c.status === "SUCCESS")) {
      verdict.failures.push(
        `${scenario} › ${check.id}: SUCCESS although listed as an expected failure; remove it from expected-failures-2026.ts`,
      );
    }
    if (!listed.some((check) => check.status === "FAILURE") && !listed.some((check) => check.status === "SUCCESS")) {
      verdict.failures.push(
        `${scenario} › expected-failure entry for ${entry.checks.join(", ")} is stale: none of its checks failed; remove it`,
      );
    }
  }
  return verdict;
}

/** Where a failed run's results are kept for diagnosis: test-results/conformance-<revision>/<server>/. */
export const REQUIREMENT_FAILURES_DIR = fileURLToPath(new URL("../../test-results/", import.meta.url));

/** Keeps a failed run: the suite's results, its output and the server's stderr. */
export async function keepRequirementRun(server: string, run: RequirementRun, serverStderr: string): Promise<string> {
  const target = join(REQUIREMENT_FAILURES_DIR, `conformance-${run.revision}`, server);
  await mkdir(target, { recursive: true });
  await cp(run.dir, target, { recursive: true });
  await writeFile(join(target, "conformance-output.txt"), run.output);
  await writeFile(join(target, "server-stderr.txt"), serverStderr);
  return target;
}
